#!/usr/bin/env node
/**
 * Builds the merchant dashboard (clients/dashboard, React + Vite) into dist/dashboard, which the gateway serves
 * under /dashboard. Part of `npm run build`; the e2e tests' global setup runs it too.
 */
'use strict';

const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');

async function main() {
  const { build } = await import('vite');
  await build({ configFile: path.join(ROOT, 'clients', 'dashboard', 'vite.config.mts'), logLevel: 'warn' });
}

main().catch((e) => {
  process.stderr.write(`${e.stack || e}\n`);
  process.exit(1);
});
