import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '../..');
const { DOCUMENT, MACHINES, render } = require('../../scripts/state-machines.js') as {
  DOCUMENT: string;
  MACHINES: Array<{ table: string; name: string }>;
  render: (load: (mod: string) => Record<string, unknown>) => string;
};

/** Every `export const X = defineMachine(` in the apps' sources, as `module#X`. */
function declaredMachines(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return declaredMachines(path);
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.spec.ts')) return [];
    const source = readFileSync(path, 'utf8');
    const module = relative(ROOT, path).replace(/\.ts$/, '');
    return [...source.matchAll(/export const (\w+) = defineMachine\b/g)].map((m) => `${module}#${m[1]}`);
  });
}

describe('docs/state-machines.md', () => {
  it('is what scripts/state-machines.js generates from the transition tables', () => {
    const generated = render((mod) => require(join(ROOT, mod)));
    expect(readFileSync(DOCUMENT, 'utf8')).toBe(generated);
  });

  it('draws every transition table the apps declare', () => {
    const drawn = MACHINES.map((m) => `${m.table}#${m.name}`).sort();
    expect(declaredMachines(join(ROOT, 'apps')).sort()).toEqual(drawn);
  });
});
