#!/usr/bin/env node
// Prints the configuration table of docs/configuration.md from the apps' env schemas (run after `npm run build`).
const path = require('node:path');
const dist = path.join(__dirname, '..', 'dist/apps');
const schemas = [
  ['gateway', 'gatewayEnv'],
  ['payments', 'paymentsEnv'],
  ['payment-links', 'paymentLinksEnv'],
  ['billing', 'billingEnv'],
  ['webhooks', 'webhooksEnv'],
];
const rows = new Map();
for (const [app, name] of schemas) {
  const schema = require(path.join(dist, app, 'src/config.js'))[name];
  for (const [variable, spec] of Object.entries(schema)) {
    let def;
    try {
      def = spec.parse(undefined, variable, {});
    } catch {
      def = '(required)';
    }
    const row = rows.get(variable) ?? { apps: [], def, description: spec.description, secret: spec.secret };
    row.apps.push(app);
    rows.set(variable, row);
  }
}
console.log('| Variable | Apps | Default | Meaning |\n|---|---|---|---|');
for (const [variable, r] of rows) {
  const list = (values) => (values.length ? values.join(',') : '(empty)');
  const def = r.def === undefined ? '(unset)' : Array.isArray(r.def) ? list(r.def) : String(r.def);
  const apps = r.apps.length === schemas.length ? 'all' : r.apps.join(', ');
  console.log(`| \`${variable}\` | ${apps} | \`${def}\` | ${r.description}${r.secret ? ' (secret)' : ''} |`);
}
