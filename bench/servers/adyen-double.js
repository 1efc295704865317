'use strict';

/**
 * The Adyen double of the tests (test/support/connectors/adyen/adyen-double.ts: Checkout API v71 bound to Adyen's
 * published document, every request and answer validated) as a bench child process, answering after
 * BENCH_PROVIDER_LATENCY_MS. Writes what a connection to it needs (endpoint, production credentials, the CA file
 * of its certificate) as JSON to BENCH_DOUBLE_INFO, then announces its port.
 */
const fs = require('node:fs');
const Module = require('node:module');
const os = require('node:os');
const path = require('node:path');
const ts = require('typescript');
const { announce } = require('./common');

const ROOT = path.resolve(__dirname, '..', '..');

// The double is TypeScript: transpile it (and what it imports) on require, with the repo's @app/* paths.
require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
    fileName: filename,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
    },
  });
  module._compile(outputText, filename);
};
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const lib = /^@app\/([a-z-]+)$/.exec(request);
  return resolve.call(this, lib ? path.join(ROOT, 'libs', lib[1], 'src') : request, ...rest);
};

async function main() {
  const { AdyenDouble } = require(path.join(ROOT, 'test/support/connectors/adyen/adyen-double.ts'));
  const { selfSignedCert } = require(path.join(ROOT, 'test/support/self-signed-cert.ts'));
  const double = new AdyenDouble({ latencyMs: Number(process.env.BENCH_PROVIDER_LATENCY_MS || 0) });
  await double.start();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-adyen-'));
  const caFile = path.join(dir, 'adyen-double-ca.pem');
  fs.writeFileSync(caFile, selfSignedCert().cert);
  const connection = double.connection(process.env.BENCH_ADYEN_ENVIRONMENT === 'sandbox' ? 'sandbox' : 'production');
  fs.writeFileSync(process.env.BENCH_DOUBLE_INFO, JSON.stringify({ ...connection, caFile }));
  announce(Number(new URL(connection.endpoint).port), async () => {
    await double.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
