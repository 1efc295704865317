#!/usr/bin/env node
/**
 * Builds the browser code the gateway serves: the package clients/browser (its build.js: tsc with its own
 * tsconfig, ES2020 and the DOM library, plus its stylesheets, the SDK's declaration file and the frozen SDK
 * releases) into dist/browser, where the gateway reads it. Part of `npm run build`; the e2e tests' global
 * setup runs it too.
 *
 * `node scripts/build-browser.js --release` also freezes the SDK just built as
 * clients/browser/releases/sdk-v{version}.js (and .d.ts), the immutable file behind /v1/sdk/v{version}/sdk.js.
 * It refuses to change a release that exists: bump SDK_VERSION in clients/browser/src/sdk.ts instead.
 */
'use strict';

const path = require('node:path');
const { run } = require('../clients/browser/build');

try {
  run(path.resolve(__dirname, '..', 'dist', 'browser'), { release: process.argv.includes('--release') });
} catch (e) {
  process.stderr.write(`build-browser: ${e.message}\n`);
  process.exitCode = 1;
}
