#!/usr/bin/env node
// The sandbox test card tables of docs/testing.md, generated from the acquirer's table (SANDBOX_CARDS in
// libs/contracts/src/payments/sandbox-cards.ts), so they cannot drift from what the sandbox does.
// `node scripts/testing-doc.js` prints them; `--write` replaces them in docs/testing.md between their markers,
// keeping the hand-written sections around them. test/deploy/testing-doc.spec.ts fails while the file differs.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const DOCUMENT = path.join(__dirname, '..', 'docs', 'testing.md');
const START = '<!-- sandbox-cards:start -->';
const END = '<!-- sandbox-cards:end -->';

/** The tables, from the contracts module (compiled or source) that holds the sandbox card table. */
function cardTables(cards) {
  const { SANDBOX_BRAND_CARDS, SANDBOX_CARDS, SANDBOX_DECLINES, summarizeSandboxCard, sandboxRefusalText } = cards;
  const brands = [
    '| Card number | Brand |',
    '|---|---|',
    ...Object.entries(SANDBOX_BRAND_CARDS).map(([brand, number]) => `| \`${number}\` | ${brand} |`),
  ];
  const behaviours = [
    '| Card number | Outcome | Refusal code | Flows it affects |',
    '|---|---|---|---|',
    ...Object.entries(SANDBOX_CARDS).map(([number, behaviour]) => {
      const { outcome, refusal, flows } = summarizeSandboxCard(behaviour);
      return `| \`${number}\` | ${outcome} | ${refusal ? sandboxRefusalText(refusal) : '-'} | ${flows} |`;
    }),
  ];
  return [
    'Approved, each with its brand in the answer (any other number that passes the Luhn check is approved too):',
    '',
    ...brands,
    '',
    'Test cards with a behaviour:',
    '',
    ...behaviours,
    '',
    'Every card, test card or not, is good through the last day of its expiry month (UTC) as of the charge, by the ' +
      "merchant's sandbox clock: a stored card charged after that (a renewal or a purchase with `tokenData`) is " +
      `declined ${sandboxRefusalText(SANDBOX_DECLINES.expiredCard)}, before its test card behaviour applies.`,
  ].join('\n');
}

/** The document with the tables between the markers replaced. */
function withTables(document, tables) {
  const start = document.indexOf(START);
  const end = document.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/testing.md has no ${START} … ${END} markers`);
  return `${document.slice(0, start + START.length)}\n${tables}\n${document.slice(end)}`;
}

module.exports = { DOCUMENT, cardTables, withTables };

if (require.main === module) {
  require('../test/support/ts-register.js');
  const tables = cardTables(require('../libs/contracts/src/payments/sandbox-cards.ts'));
  if (process.argv.includes('--write')) {
    fs.writeFileSync(DOCUMENT, withTables(fs.readFileSync(DOCUMENT, 'utf8'), tables));
    console.log(`Wrote ${path.relative(path.join(__dirname, '..'), DOCUMENT)}`);
  } else console.log(tables);
}
