#!/usr/bin/env node
/**
 * Builds the browser code the gateway serves: compiles apps/gateway/src/browser (tsc with its own tsconfig:
 * ES2020 and the DOM library) into dist/browser, and copies its stylesheets, the SDK's declaration file and
 * the frozen SDK releases beside the scripts. Part of `npm run build`; the e2e tests' global setup runs it too.
 *
 * `node scripts/build-browser.js --release` also freezes the SDK just built as
 * apps/gateway/src/browser/releases/sdk-v{version}.js (and .d.ts), the immutable file behind
 * /v1/sdk/v{version}/sdk.js. It refuses to change a release that exists: bump the version in sdk.ts instead.
 */
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const SRC = path.join(ROOT, 'apps', 'gateway', 'src', 'browser');
const OUT = path.join(ROOT, 'dist', 'browser');

function build() {
  const tsc = require.resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(SRC, 'tsconfig.json')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`tsc for the browser code failed (exit ${result.status})`);
  for (const name of fs.readdirSync(SRC)) {
    if (name.endsWith('.css') || name.endsWith('.d.ts')) fs.copyFileSync(path.join(SRC, name), path.join(OUT, name));
  }
  const releases = path.join(SRC, 'releases');
  fs.mkdirSync(path.join(OUT, 'releases'), { recursive: true });
  for (const name of fs.readdirSync(releases)) {
    fs.copyFileSync(path.join(releases, name), path.join(OUT, 'releases', name));
  }
}

/** The version sdk.ts declares (`const SDK_VERSION = '1.0.0'`). */
function sdkVersion() {
  const match = /const SDK_VERSION = '(\d+\.\d+\.\d+)'/.exec(fs.readFileSync(path.join(SRC, 'sdk.ts'), 'utf8'));
  if (!match) throw new Error('sdk.ts declares no SDK_VERSION');
  return match[1];
}

function release() {
  const version = sdkVersion();
  for (const [built, ext] of [
    ['sdk.js', 'js'],
    ['payments-sdk.d.ts', 'd.ts'],
  ]) {
    const target = path.join(SRC, 'releases', `sdk-v${version}.${ext}`);
    const body = fs.readFileSync(path.join(OUT, built), 'utf8');
    if (fs.existsSync(target)) {
      if (fs.readFileSync(target, 'utf8') !== body) {
        throw new Error(`${path.relative(ROOT, target)} is released and differs: bump SDK_VERSION in sdk.ts`);
      }
      continue;
    }
    fs.writeFileSync(target, body);
    process.stderr.write(`build-browser: released ${path.relative(ROOT, target)}\n`);
  }
  build();
}

try {
  build();
  if (process.argv.includes('--release')) release();
} catch (e) {
  process.stderr.write(`build-browser: ${e.message}\n`);
  process.exitCode = 1;
}
