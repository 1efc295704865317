#!/usr/bin/env node
// The text-limits table of docs/api.md, generated from TEXT_LIMITS in libs/contracts (so it cannot drift).
// `node scripts/limits-table.js` prints it; `--write` replaces it in docs/api.md between its markers.
const fs = require('node:fs');
const path = require('node:path');

const README = path.join(__dirname, '..', 'docs', 'api.md');
const START = '<!-- text-limits:start -->';
const END = '<!-- text-limits:end -->';

function limitsTable(limits) {
  const lines = ['| Request object | Field: most characters |', '|---|---|'];
  for (const [type, row] of Object.entries(limits)) {
    const fields = Object.entries(row).map(([field, max]) => `\`${field}\`: ${max}`);
    lines.push(`| \`${type}\` | ${fields.join(', ')} |`);
  }
  return lines.join('\n');
}

/** The README text with the table between the markers replaced. */
function withTable(readme, table) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/api.md has no ${START} … ${END} markers`);
  return `${readme.slice(0, start + START.length)}\n${table}\n${readme.slice(end)}`;
}

if (require.main === module) {
  require('../test/support/ts-register.js');
  const table = limitsTable(require('../libs/contracts/src/text-limits.ts').TEXT_LIMITS);
  if (process.argv.includes('--write')) fs.writeFileSync(README, withTable(fs.readFileSync(README, 'utf8'), table));
  else console.log(table);
}

module.exports = { limitsTable, withTable, README };
