#!/usr/bin/env node
/**
 * Builds dist/ with `npm run build` when it is missing or older than the sources, so `npm run bench` and
 * `npm run cli` and `npm run ops` never run stale code. "Older" means: some .ts under apps/ or libs/ that the build compiles
 * (tsconfig.build.json leaves out *.spec.ts and *.e2e-spec.ts), or a stylesheet or frozen SDK release of the
 * browser code, or a source of the dashboard (clients/dashboard), of the developer CLI (clients/cli) or of the
 * typed client (clients/typescript: the CLI and the webhooks service compile its signature module), was modified
 * after dist/.tsbuildinfo.
 * Messages go to stderr so the stdout of the command that follows stays clean.
 */
'use strict';

const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist');
const BUILD_INFO = path.join(DIST, '.tsbuildinfo');
// The dashboard's sources too: `npm run build` builds it with Vite into dist/dashboard. The developer CLI's and
// the typed client's: `npm run build` builds the CLI into clients/cli/dist, and libs/webhook-signature is the
// client's signature module.
const SOURCE_DIRS = ['apps', 'libs', 'clients/dashboard', 'clients/cli/src', 'clients/typescript/src'];
const CLI_MAIN = path.join(ROOT, 'clients', 'cli', 'dist', 'cli', 'src', 'main.js');

function say(text) {
  process.stderr.write(`ensure-build: ${text}\n`);
}

function isBuiltSource(name) {
  if (name.endsWith('.css') || name.startsWith('sdk-v')) return true;
  if (name.endsWith('.tsx') || name === 'index.html' || name === 'vite.config.mts') return true;
  return name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.e2e-spec.ts');
}

/**
 * The most recently modified compiled source or source folder (a folder's time changes when a file in it is
 * added, deleted or renamed, which no remaining file's time shows), or undefined when there is none.
 */
function newestSource() {
  let newest;
  const stack = SOURCE_DIRS.map((d) => path.join(ROOT, d)).filter((d) => fs.existsSync(d));
  while (stack.length) {
    const dir = stack.pop();
    const dirMtimeMs = fs.statSync(dir).mtimeMs;
    if (!newest || dirMtimeMs > newest.mtimeMs) newest = { file: `${path.relative(ROOT, dir)}/`, mtimeMs: dirMtimeMs };
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) stack.push(full);
      else if (entry.isFile() && isBuiltSource(entry.name)) {
        const mtimeMs = fs.statSync(full).mtimeMs;
        if (!newest || mtimeMs > newest.mtimeMs) newest = { file: path.relative(ROOT, full), mtimeMs };
      }
    }
  }
  return newest;
}

/**
 * A fresh .tsbuildinfo does not prove a good dist/: a build with type errors still emits and writes it (and
 * `npm run build` then skips tsc-alias), and `tsc -p tsconfig.build.json --noEmit` writes it without emitting.
 */
function brokenBuildReason() {
  try {
    const info = JSON.parse(fs.readFileSync(BUILD_INFO, 'utf8'));
    // Files with diagnostics are listed as [fileId, [diagnostic, ...]]; category 1 is an error.
    const hasErrors = (list) =>
      Array.isArray(list) &&
      list.some((e) => Array.isArray(e) && Array.isArray(e[1]) && e[1].some((d) => d.category === 1));
    if (info.errors || hasErrors(info.semanticDiagnosticsPerFile) || hasErrors(info.emitDiagnosticsPerFile)) {
      return 'the last build had type errors';
    }
    if (info.checkPending || (info.affectedFilesPendingEmit && info.affectedFilesPendingEmit.length)) {
      return 'the last tsc run left files unemitted (a --noEmit run?)';
    }
  } catch {
    return 'dist/.tsbuildinfo is unreadable';
  }
  if (!fs.existsSync(path.join(DIST, 'browser', 'sdk.js'))) return 'dist/browser is missing (the browser code)';
  if (!fs.existsSync(path.join(DIST, 'dashboard', 'index.html'))) return 'dist/dashboard is missing (the dashboard)';
  if (!fs.existsSync(CLI_MAIN)) return 'clients/cli/dist is missing (the developer CLI)';
  const appsDir = path.join(DIST, 'apps');
  const apps = fs.existsSync(appsDir) ? fs.readdirSync(appsDir) : [];
  for (const app of apps) {
    const main = path.join(appsDir, app, 'src', 'main.js');
    if (fs.existsSync(main) && /require\("@app\//.test(fs.readFileSync(main, 'utf8'))) {
      return `${path.relative(ROOT, main)} still requires @app/ paths (tsc-alias did not run)`;
    }
  }
  return undefined;
}

/** Why a build is needed, or undefined when dist/ is current. */
function staleReason() {
  if (!fs.existsSync(DIST)) return 'dist/ is missing';
  if (!fs.existsSync(BUILD_INFO)) return 'dist/.tsbuildinfo is missing';
  const builtAt = fs.statSync(BUILD_INFO).mtimeMs;
  const newest = newestSource();
  if (newest && newest.mtimeMs > builtAt) {
    return `${newest.file} (${new Date(newest.mtimeMs).toISOString()}) is newer than dist/.tsbuildinfo (${new Date(builtAt).toISOString()})`;
  }
  return brokenBuildReason();
}

/** The lock file of the checkout at `root`: it holds the pid of the process that builds it. */
function buildLockFile(root = ROOT) {
  return path.join(os.tmpdir(), `ensure-build-${createHash('sha256').update(root).digest('hex').slice(0, 16)}.lock`);
}

/**
 * One build of this checkout at a time: parallel test workers each ask for a current dist/, and two builds
 * writing dist/ at once would leave it broken. The lock file holds the builder's pid; a waiter takes over a
 * lock whose process is gone. Returns the release.
 */
function lockBuild() {
  const lock = buildLockFile();
  for (let waited = 0; ; waited++) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lock, { force: true });
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
    }
    const holder = Number(fs.readFileSync(lock, 'utf8').trim() || '0');
    if (holder && !isAlive(holder)) fs.rmSync(lock, { force: true });
    else {
      if (waited === 0) say(`waiting for the build that process ${holder} runs`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

function main() {
  const release = lockBuild();
  try {
    return build();
  } finally {
    release();
  }
}

function build() {
  const reason = staleReason();
  if (!reason) {
    say('dist/ is up to date, no build needed');
    return 0;
  }
  say(`${reason}; running npm run build`);
  const startedAt = new Date();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 2, 'inherit'] });
  if (result.error) {
    say(`could not run npm run build: ${result.error.message}`);
    return 1;
  }
  if (result.status !== 0) {
    say(`npm run build failed (exit ${result.status ?? result.signal}); fix the errors above`);
    return result.status || 1;
  }
  // An incremental tsc that found nothing to emit leaves .tsbuildinfo untouched; stamp it with the time the
  // build started so an unchanged but touched file does not trigger a build every time, while a file saved
  // during the build still does next time.
  if (fs.existsSync(BUILD_INFO)) fs.utimesSync(BUILD_INFO, startedAt, startedAt);
  say(`build done in ${((Date.now() - startedAt.getTime()) / 1000).toFixed(1)} s`);
  return 0;
}

if (require.main === module) process.exitCode = main();

module.exports = { buildLockFile };
