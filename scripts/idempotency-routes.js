#!/usr/bin/env node
// The list of routes that honour `Idempotency-Key` in docs/api.md, generated from the committed OpenAPI
// document (clients/typescript/openapi.json, itself generated from the gateway's routes: a route honours the key
// when its handler takes it, which documents the header). `node scripts/idempotency-routes.js` prints the list;
// `--write` replaces it in docs/api.md between its markers. test/deploy/idempotency-routes.spec.ts fails while
// the file differs.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const DOCUMENT = path.join(ROOT, 'docs', 'api.md');
const OPENAPI = path.join(ROOT, 'clients', 'typescript', 'openapi.json');
const START = '<!-- idempotency-routes:start -->';
const END = '<!-- idempotency-routes:end -->';

const METHODS = ['post', 'put', 'patch', 'delete'];

/** Which API a route belongs to, by where it is served, in the order the list shows them. */
const GROUPS = [
  ['Merchant API (private key)', (p) => !p.startsWith('/v1/admin/') && !p.startsWith('/dashboard/')],
  ["Admin API (the gateway's internal port, `ADMIN_TOKEN`)", (p) => p.startsWith('/v1/admin/')],
  ['Dashboard API (a signed-in session)', (p) => p.startsWith('/dashboard/')],
];

/** Every `METHOD path` whose operation takes the `Idempotency-Key` header, in the document's order. */
function honouringRoutes(openapi) {
  const routes = [];
  for (const [route, item] of Object.entries(openapi.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const takesKey = (op.parameters ?? []).some((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      if (takesKey) routes.push({ method: method.toUpperCase(), path: route });
    }
  }
  return routes;
}

/** The Markdown list: one line per API, its routes in code spans. */
function routesList(openapi) {
  const routes = honouringRoutes(openapi);
  return GROUPS.flatMap(([title, belongs]) => {
    const mine = routes.filter((r) => belongs(r.path)).map((r) => `\`${r.method} ${r.path}\``);
    return mine.length ? [`  - ${title}: ${mine.join(', ')}.`] : [];
  }).join('\n');
}

/** The document with the list between the markers replaced. */
function withList(document, list) {
  const start = document.indexOf(START);
  const end = document.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/api.md has no ${START} … ${END} markers`);
  return `${document.slice(0, start + START.length)}\n${list}\n${document.slice(end)}`;
}

module.exports = { DOCUMENT, OPENAPI, honouringRoutes, routesList, withList };

if (require.main === module) {
  const list = routesList(JSON.parse(fs.readFileSync(OPENAPI, 'utf8')));
  if (process.argv.includes('--write')) {
    fs.writeFileSync(DOCUMENT, withList(fs.readFileSync(DOCUMENT, 'utf8'), list));
    console.log(`Wrote ${path.relative(ROOT, DOCUMENT)}`);
  } else console.log(list);
}
