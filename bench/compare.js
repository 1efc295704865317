'use strict';

/**
 * `npm run bench -- --compare=<ref> [--rounds=N] …`: builds `<ref>` in a git worktree of its own (kept under
 * the system's temp folder for the next comparison, `git worktree remove` drops it), copies this checkout's
 * bench/ into it so both builds run the same scenarios, then runs the bench in this checkout and in that one
 * alternately (this, ref; ref, this; …) with the other options as given, and prints each run side by side with
 * the means. Each run's results are kept in bench/results/compare/ (`<start time>-<round>-<this|ref>.json`).
 */

const { spawnSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(__dirname, 'results', 'compare');

const say = (text) => process.stdout.write(`[compare] ${text}\n`);

function git(args, cwd = ROOT) {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

/** A built checkout of `ref`: made once per commit, its bench/ replaced by this one's each time. */
function prepare(ref) {
  const sha = git(['rev-parse', '--verify', `${ref}^{commit}`]);
  const dir = path.join(os.tmpdir(), `bench-compare-${sha.slice(0, 12)}`);
  if (!fs.existsSync(path.join(dir, '.git'))) {
    say(`adding a worktree of ${ref} (${sha.slice(0, 12)}) at ${dir}`);
    git(['worktree', 'add', '--detach', dir, sha]);
  }
  const modules = path.join(dir, 'node_modules');
  if (!fs.existsSync(modules)) fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), modules);
  fs.rmSync(path.join(dir, 'bench'), { recursive: true, force: true });
  fs.cpSync(path.join(ROOT, 'bench'), path.join(dir, 'bench'), {
    recursive: true,
    filter: (src) => !src.startsWith(path.join(ROOT, 'bench', 'results')),
  });
  for (const helper of ['scripts/app-node-options.js']) {
    fs.copyFileSync(path.join(ROOT, helper), path.join(dir, helper));
  }
  say(`building ${ref} in ${dir} when needed`);
  const built = spawnSync(process.execPath, ['scripts/ensure-build.js'], { cwd: dir, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`the build of ${ref} failed`);
  return { sha, dir };
}

function runOnce(cwd, args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(cwd, 'bench', 'run.js'), ...args], { cwd, stdio: 'inherit' });
    child.once('exit', (code) => resolve(code));
  });
}

function readResult(cwd) {
  return JSON.parse(fs.readFileSync(path.join(cwd, 'bench', 'results', 'latest.json'), 'utf8'));
}

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : undefined);
const fmt = (n) => (n === undefined ? '-' : Math.round(n).toLocaleString('en-US'));

/** One row per scenario and build: req/s of each run, mean, and the mean CPU µs per request of each process. */
function table(runs) {
  const lines = [];
  const ids = [...new Set(runs.flatMap((r) => r.result.scenarios.map((s) => s.id)))];
  for (const id of ids) {
    lines.push(`\n${id}`);
    const byLabel = new Map();
    for (const run of runs) {
      const s = run.result.scenarios.find((x) => x.id === id && x.status === 'ran');
      if (!s) continue;
      if (!byLabel.has(run.label)) byLabel.set(run.label, []);
      byLabel.get(run.label).push(s);
    }
    const means = {};
    for (const [label, list] of byLabel) {
      const rps = list.map((s) => s.result.rps);
      const cpu = {};
      for (const s of list) {
        for (const [name, us] of Object.entries(s.cpuUsPerRequest || {})) (cpu[name] ??= []).push(us);
      }
      means[label] = { rps: mean(rps), total: cpu.total && mean(cpu.total) };
      const p99 = list.map((s) => s.result.latencyMs.p99).join(' / ');
      const cpuText = Object.entries(cpu)
        .map(([name, xs]) => `${name} ${fmt(mean(xs))}`)
        .join(', ');
      lines.push(
        `  ${label.padEnd(24)} ${rps.map(fmt).join(' / ')} req/s (mean ${fmt(mean(rps))}), p99 ${p99} ms; CPU µs per request: ${cpuText}`,
      );
    }
    const [a, b] = [...byLabel.keys()];
    if (a && b && means[a].rps && means[b].rps) {
      const cpuChange =
        means[a].total && means[b].total
          ? `, CPU per request ${((means[a].total / means[b].total - 1) * 100).toFixed(1)} %`
          : '';
      lines.push(`  ${a} against ${b}: req/s ${((means[a].rps / means[b].rps - 1) * 100).toFixed(1)} %${cpuChange}`);
    }
  }
  return lines.join('\n');
}

async function compare(ref, rounds, forwarded) {
  const other = prepare(ref);
  const here = {
    label: `this (${git(['rev-parse', '--short', 'HEAD'])}${git(['status', '--porcelain']) ? '+' : ''})`,
    dir: ROOT,
  };
  const there = { label: `${ref} (${other.sha.slice(0, 7)})`, dir: other.dir };
  fs.mkdirSync(OUT, { recursive: true });
  const stamp = new Date().toISOString().replace(/[-:]/g, '').slice(0, 15);
  const runs = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [here, there] : [there, here];
    for (const build of order) {
      say(`round ${round + 1}/${rounds}: ${build.label}, load average ${os.loadavg()[0].toFixed(2)}`);
      const code = await runOnce(build.dir, forwarded);
      if (code !== 0) say(`the bench of ${build.label} exited with ${code}`);
      const result = readResult(build.dir);
      const file = path.join(OUT, `${stamp}-${round + 1}-${build === here ? 'this' : 'ref'}.json`);
      fs.writeFileSync(file, `${JSON.stringify({ label: build.label, ...result }, null, 2)}\n`);
      runs.push({ label: build.label, result });
    }
  }
  process.stdout.write(`\nAlternated runs, ${rounds} round(s) of each build:${table(runs)}\n`);
  const loads = runs.map((r) => `${r.result.host.loadBefore.loadavg1}→${r.result.host.loadAfter.loadavg1}`);
  process.stdout.write(`\nload average (1 min) before→after each run: ${loads.join(', ')}\n`);
  say(`results in ${path.relative(process.cwd(), OUT)}/; the worktree stays at ${other.dir}`);
  return 0;
}

module.exports = { compare, table };
