'use strict';
/**
 * Test files that run together, found by name: in a folder with a `group.e2e-spec.ts`, every `*.e2e-case.ts` is
 * a case of that group, and the group file (`runGroup(__dirname)`, test/support/run-group.ts) runs them all in
 * one Jest file. Jest gives every test file a fresh module registry, so each file loads Nest, TypeORM and the
 * apps anew (about 1.3 s of CPU before its first test); the cases of a group load them once. Each case still
 * starts its own stack, keeps its own hooks and its own `jest.setTimeout`, and runs inside a `describe` named
 * after its path, so a failure names its file.
 *
 * A `*.e2e-spec.ts` runs in a file of its own: tests of child processes, browsers and process-wide state
 * (tracing, pg's Client prototype, process warnings), and the longest files, which balance the workers.
 * test/deploy/test-groups.spec.ts fails on a case outside a grouped folder and on a group without cases.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const GROUP_FILE = 'group.e2e-spec.ts';
const CASE_SUFFIX = '.e2e-case.ts';

const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage', 'test-output']);

/** Every file under `dir` (absolute paths); dependencies, build output and dot folders left out. */
function filesUnder(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name) || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

const rel = (root, file) => path.relative(root, file).split(path.sep).join('/');

/** The cases of the group in `folder` (absolute): its `*.e2e-case.ts`, sorted by name. */
function casesOf(folder) {
  return fs
    .readdirSync(folder)
    .filter((name) => name.endsWith(CASE_SUFFIX))
    .sort()
    .map((name) => path.join(folder, name));
}

/** Each group under `<root>/test`: its folder, its Jest file and its cases, relative to `root`. */
function groups(root = ROOT) {
  return filesUnder(path.join(root, 'test'))
    .filter((f) => path.basename(f) === GROUP_FILE)
    .sort()
    .map((file) => {
      const folder = path.dirname(file);
      return { folder: rel(root, folder), file: rel(root, file), cases: casesOf(folder).map((c) => rel(root, c)) };
    });
}

/**
 * What breaks the convention under `<root>`: a case in a folder without a group file (it would never run), a
 * group file without cases, or one that does not hand its folder to runGroup. Empty when all is well.
 */
function groupRuleViolations(root = ROOT) {
  const problems = [];
  for (const file of filesUnder(root).filter((f) => f.endsWith(CASE_SUFFIX))) {
    if (!fs.existsSync(path.join(path.dirname(file), GROUP_FILE))) {
      problems.push(`${rel(root, file)}: no ${GROUP_FILE} in its folder, so it never runs`);
    }
  }
  for (const g of groups(root)) {
    if (!g.cases.length) problems.push(`${g.file}: no *${CASE_SUFFIX} beside it`);
    if (!/runGroup\(__dirname\)/.test(fs.readFileSync(path.join(root, g.file), 'utf8'))) {
      problems.push(`${g.file}: does not call runGroup(__dirname)`);
    }
  }
  return problems;
}

module.exports = { groups, groupRuleViolations, GROUP_FILE, CASE_SUFFIX };
