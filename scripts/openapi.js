#!/usr/bin/env node
/**
 * Emits the gateway's OpenAPI document without a database or NATS and generates the TypeScript client's types
 * from it:
 *   clients/typescript/openapi.json          the whole document, as the gateway serves it at /openapi.json
 *   clients/typescript/src/generated/api.ts  openapi-typescript types of the merchant routes (no x-internal)
 * `node scripts/openapi.js` writes both; `--check` writes nothing and exits 1 when either differs from what is
 * committed (run it after adding or changing a route).
 */
'use strict';

require('../test/support/ts-register');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const CLIENT = path.join(ROOT, 'clients/typescript');
const DOCUMENT = path.join(CLIENT, 'openapi.json');
const TYPES = path.join(CLIENT, 'src/generated/api.ts');
const GENERATOR = path.join(path.dirname(require.resolve('openapi-typescript/package.json')), 'bin/cli.js');

async function generate() {
  // The gateway starts only with its browser code built (dist/browser); a fresh checkout has none yet.
  if (!fs.existsSync(path.join(ROOT, 'dist/browser/sdk.js'))) {
    const built = spawnSync(process.execPath, [path.join(__dirname, 'build-browser.js')], { stdio: 'inherit' });
    if (built.status !== 0) throw new Error('building the browser code failed');
  }
  const { emitOpenApiDocument } = require('./openapi-emit');
  const { withoutInternalOperations } = require('../apps/gateway/src/http/openapi-tidy');
  const document = await emitOpenApiDocument();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-'));
  try {
    const merchant = path.join(dir, 'merchant.json');
    const types = path.join(dir, 'api.ts');
    fs.writeFileSync(merchant, JSON.stringify(withoutInternalOperations(document), null, 2));
    const run = spawnSync(
      process.execPath,
      [GENERATOR, merchant, '--output', types, '--root-types', '--default-non-nullable=false'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    if (run.status !== 0) throw new Error(`openapi-typescript failed:\n${run.stdout}\n${run.stderr}`);
    return {
      [DOCUMENT]: `${JSON.stringify(document, null, 2)}\n`,
      [TYPES]: fs.readFileSync(types, 'utf8'),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const check = process.argv.includes('--check');
  const files = await generate();
  let stale = 0;
  for (const [file, text] of Object.entries(files)) {
    const name = path.relative(ROOT, file);
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    if (current === text) continue;
    if (check) {
      stale++;
      process.stderr.write(`${name} differs from the gateway's routes; run: node scripts/openapi.js\n`);
    } else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      process.stderr.write(`wrote ${name}\n`);
    }
  }
  return stale ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`${e.stack ?? e}\n`);
    process.exit(1);
  },
);
