import { readFileSync } from 'node:fs';
import * as cards from '../../libs/contracts/src/payments/sandbox-cards';

const { DOCUMENT, cardTables, withTables } = require('../../scripts/testing-doc.js') as {
  DOCUMENT: string;
  cardTables: (module: typeof cards) => string;
  withTables: (document: string, tables: string) => string;
};

describe('docs/testing.md', () => {
  const committed = readFileSync(DOCUMENT, 'utf8');

  it('has the test card tables scripts/testing-doc.js generates from the sandbox card table', () => {
    expect(committed).toBe(withTables(committed, cardTables(cards)));
  });

  it('lists every sandbox test card and brand test number with its refusal code', () => {
    const tables = cardTables(cards);
    for (const [number, behaviour] of Object.entries(cards.SANDBOX_CARDS)) {
      const row = tables.split('\n').find((line) => line.startsWith(`| \`${number}\` |`));
      const refusal = 'refusal' in behaviour ? behaviour.refusal.reasonCode : undefined;
      expect({ number, row: row !== undefined }).toEqual({ number, row: true });
      if (refusal) expect(row).toContain(`\`${refusal}\``);
    }
    for (const number of Object.values(cards.SANDBOX_BRAND_CARDS)) expect(tables).toContain(`| \`${number}\` |`);
  });

  it('keeps the hand-written sections around the tables when it rewrites them', () => {
    const document = 'before\n<!-- sandbox-cards:start -->\nstale\n<!-- sandbox-cards:end -->\nafter\n';
    expect(withTables(document, 'fresh')).toBe(
      'before\n<!-- sandbox-cards:start -->\nfresh\n<!-- sandbox-cards:end -->\nafter\n',
    );
    expect(() => withTables('no markers', 'fresh')).toThrow(/markers/);
  });
});
