#!/usr/bin/env node
/**
 * Builds the browser code: compiles src/ (tsc with tsconfig.json here: ES2020 and the DOM library) and copies
 * the stylesheets, the SDK's declaration file and the frozen SDK releases beside the scripts.
 *
 *   node build.js                  writes dist/ (this folder)
 *   node build.js --out DIR        writes DIR instead (the root build writes the gateway's dist/browser)
 *   node build.js --release        also freezes the SDK just built as releases/sdk-v{version}.js (and .d.ts),
 *                                  the immutable file behind /v1/sdk/v{version}/sdk.js. It refuses to change
 *                                  a release that exists: bump SDK_VERSION in src/sdk.ts instead.
 */
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const HERE = __dirname;
const SRC = path.join(HERE, 'src');
const RELEASES = path.join(HERE, 'releases');

/** Compiles and copies the browser code into `out`. */
function build(out) {
  const tsc = require.resolve('typescript/bin/tsc', { paths: [HERE] });
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(HERE, 'tsconfig.json'), '--outDir', out], {
    cwd: HERE,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`tsc for the browser code failed (exit ${result.status})`);
  for (const name of fs.readdirSync(SRC)) {
    if (name.endsWith('.css') || name.endsWith('.d.ts')) fs.copyFileSync(path.join(SRC, name), path.join(out, name));
  }
  fs.mkdirSync(path.join(out, 'releases'), { recursive: true });
  for (const name of fs.readdirSync(RELEASES)) {
    fs.copyFileSync(path.join(RELEASES, name), path.join(out, 'releases', name));
  }
}

/** The version src/sdk.ts declares (`const SDK_VERSION = '1.0.0'`). */
function sdkVersion() {
  const match = /const SDK_VERSION = '(\d+\.\d+\.\d+)'/.exec(fs.readFileSync(path.join(SRC, 'sdk.ts'), 'utf8'));
  if (!match) throw new Error('src/sdk.ts declares no SDK_VERSION');
  return match[1];
}

/** Freezes the SDK built into `out` as the release of its version, then rebuilds so `out` carries it. */
function release(out) {
  const version = sdkVersion();
  for (const [built, ext] of [
    ['sdk.js', 'js'],
    ['payments-sdk.d.ts', 'd.ts'],
  ]) {
    const target = path.join(RELEASES, `sdk-v${version}.${ext}`);
    const body = fs.readFileSync(path.join(out, built), 'utf8');
    if (fs.existsSync(target)) {
      if (fs.readFileSync(target, 'utf8') !== body) {
        throw new Error(`${path.relative(HERE, target)} is released and differs: bump SDK_VERSION in src/sdk.ts`);
      }
      continue;
    }
    fs.writeFileSync(target, body);
    process.stderr.write(`build-browser: released ${path.relative(HERE, target)}\n`);
  }
  build(out);
}

/** Builds into `out` (and releases with `{ release: true }`). */
function run(out, options = {}) {
  build(out);
  if (options.release) release(out);
}

module.exports = { run, RELEASES, SRC };

if (require.main === module) {
  const at = process.argv.indexOf('--out');
  const out = path.resolve(at > 0 ? process.argv[at + 1] : path.join(HERE, 'dist'));
  try {
    run(out, { release: process.argv.includes('--release') });
  } catch (e) {
    process.stderr.write(`build-browser: ${e.message}\n`);
    process.exitCode = 1;
  }
}
