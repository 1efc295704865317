#!/usr/bin/env node
/**
 * `npm run bench`: starts the built suite on fresh databases and a private nats-server, runs the scenarios of
 * bench/scenarios.js with autocannon, prints one table with the targets and writes bench/results/latest.json.
 * Everything it creates (processes, databases, the NATS store) is removed at the end, also on failure or
 * Ctrl-C. Options: `npm run bench -- --help`.
 */
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { measure, stopCurrent } = require('./lib/load');
const { forwardedArgs, parseOptions, USAGE } = require('./lib/options');
const { Children, cpuMeter, heapMb, machineLoad, rssMb, waitForQuiet } = require('./lib/procs');
const profile = require('./lib/profile');
const report = require('./lib/report');
const { createDatabases, startStack } = require('./lib/stack');
const { scenarios } = require('./scenarios');

const RESULTS_DIR = path.join(__dirname, 'results');
const LOG_DIR = path.join(RESULTS_DIR, 'logs');

const say = (text) => process.stdout.write(`[bench] ${text}\n`);

/** Undo steps, run newest first, exactly once. */
const undo = [];
let cleaning;
function onCleanup(label, fn) {
  undo.push({ label, fn });
}
function cleanup() {
  cleaning ??= (async () => {
    stopCurrent();
    while (undo.length) {
      const { label, fn } = undo.pop();
      try {
        await fn();
      } catch (e) {
        process.stderr.write(`[bench] cleanup "${label}" failed: ${e.message}\n`);
      }
    }
  })();
  return cleaning;
}

/** Set on Ctrl-C: no new scenario starts while the cleanup runs. */
let stopping = false;

function exitAfterCleanup(code, message) {
  stopping = true;
  if (message) process.stderr.write(`[bench] ${message}\n`);
  cleanup().finally(() => process.exit(code));
}
process.once('SIGINT', () => exitAfterCleanup(130, 'interrupted: stopping processes and dropping databases'));
process.once('SIGTERM', () => exitAfterCleanup(143, 'terminated: stopping processes and dropping databases'));
process.on('unhandledRejection', (e) => exitAfterCleanup(1, `unexpected: ${(e && e.stack) || e}`));
process.on('uncaughtException', (e) => exitAfterCleanup(1, `unexpected: ${e.stack || e}`));

function selectScenarios(ids) {
  if (!ids.length) return scenarios;
  const unknown = ids.filter((id) => !scenarios.some((s) => s.id === id));
  if (unknown.length) {
    throw new Error(`unknown scenario "${unknown[0]}"; known: ${scenarios.map((s) => s.id).join(', ')}`);
  }
  // In the order asked for, repeats allowed (e.g. purchase-300,purchase,purchase-300).
  return ids.map((id) => scenarios.find((s) => s.id === id));
}

/** What scenarios get to work with (documented in bench/scenarios.js). */
function makeContext(options, children, stack) {
  const memos = new Map();
  const prefix = `bench_${Math.random().toString(36).slice(2, 10)}`;
  return {
    options,
    stack,
    say,
    databasePrefix: prefix,
    memo(key, fn) {
      if (!memos.has(key)) memos.set(key, fn());
      return memos.get(key);
    },
    async startServer(name, script, env) {
      const entry = children.fork(name, script, { PATH: process.env.PATH, HOME: process.env.HOME, ...env });
      const port = await children.listening(entry);
      return {
        url: `http://127.0.0.1:${port}`,
        processes: [{ name, pid: entry.pid }],
        teardown: () => children.stop(entry),
      };
    },
    async createDatabase(suffix) {
      const dbs = await createDatabases(options.pgBase, prefix, [suffix]);
      onCleanup(`drop database ${prefix}_${suffix}`, dbs.drop);
      return dbs.urls[suffix];
    },
  };
}

async function runScenario(scenario, ctx, options) {
  const outcome = {
    id: scenario.id,
    name: scenario.name,
    target: scenario.target,
    rate: scenario.rate,
    eventsPerRequest: scenario.eventsPerRequest,
  };
  if (scenario.stack && !ctx.stack) return { ...outcome, status: 'error', message: 'the suite did not start' };
  let setup;
  try {
    setup = await scenario.setup(ctx);
  } catch (e) {
    return { ...outcome, status: 'error', message: e.message };
  }
  if (setup.skip) return { ...outcome, status: 'skip', message: setup.skip };

  const measured = [
    ...(ctx.stack ? ctx.stack.processes : []),
    ...(setup.processes || []),
    { name: 'bench', pid: process.pid },
  ];
  const load = scenario.rate ? `${scenario.rate} req/s fixed` : 'max rate';
  const connections = scenario.connections || options.connections;
  say(
    `${scenario.name}: ${setup.describe || `${connections} connections, ${load}, ${options.warmup} s warm-up + ${options.duration} s`}`,
  );
  try {
    // CPU counts the measured seconds only: the meter starts after the warm-up.
    let meter;
    let counting;
    const profiling = scenario.stack && ctx.stack && ctx.stack.profiling;
    // A suite scenario's databases are the stack's; a baseline's (pg-insert) are made by the scenario itself.
    const databasePrefix = scenario.stack && ctx.stack ? ctx.stack.databasePrefix : ctx.databasePrefix;
    const onMeasureStart = () => {
      meter = cpuMeter(measured, { databasePrefix });
      if (profiling) counting = profile.startCounting({ stack: ctx.stack, pg: profiling }).catch(() => undefined);
    };
    const result = setup.measure
      ? await setup.measure({ onMeasureStart })
      : await measure(setup.request, {
          connections,
          duration: options.duration,
          warmup: options.warmup,
          rate: scenario.rate,
          onMeasureStart,
        });
    const cpu = meter ? meter.finish() : undefined;
    const requests = result.requests ?? Math.round(result.rps * options.duration);
    const counter = counting && (await counting);
    const counts = counter && requests ? await counter.finish(requests).catch(() => undefined) : undefined;
    const window = profiling && meter && { fromUs: meter.startedAtUs, toUs: meter.endedAtUs, requests, counts };
    const rss = {};
    for (const p of measured) {
      const mb = rssMb(p.pid);
      if (mb !== undefined) rss[p.name] = Number(mb.toFixed(1));
    }
    const heap = {};
    for (const p of measured.filter((x) => x.metricsUrl)) {
      const h = await heapMb(p.metricsUrl);
      if (h) heap[p.name] = h;
    }
    // An app that died under load explains a wall of errors better than the numbers do.
    const gone = measured.filter((p) => rss[p.name] === undefined).map((p) => p.name);
    for (const name of gone) say(`  WARNING: ${name} is no longer running; see its log in bench/results/logs/`);
    // A baseline's requests are its own server's and its database's: the idle suite beside it is left out.
    const own = scenario.stack ? undefined : new Set((setup.processes || []).map((p) => p.name));
    const perRequest = report.cpuPerRequest(cpu, result.rps, own);
    const done = {
      ...outcome,
      status: 'ran',
      result,
      cpu,
      cpuUsPerRequest: perRequest,
      rssMb: rss,
      heapMb: heap,
      exited: gone.length ? gone : undefined,
      profileWindow: window || undefined,
      eventsPerSec: report.eventsPerSec(scenario.eventsPerRequest, result),
      verdict: report.verdict(scenario.target, result, scenario.eventsPerRequest),
    };
    const r = result;
    say(
      `  ${r.rps} req/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}` +
        (Object.keys(r.statusCodes).length ? `, statuses ${JSON.stringify(r.statusCodes)}` : ''),
    );
    if (done.eventsPerSec !== undefined) say(`  ${done.eventsPerSec.toLocaleString('en-US')} events/s`);
    if (r.note) say(`  ${r.note}`);
    say(`  CPU: ${report.formatCpu(cpu)}`);
    say(`  CPU per request: ${report.formatCpuPerRequest(perRequest)}`);
    say(`  RSS: ${report.formatRss(rss, heap)}`);
    return done;
  } catch (e) {
    return { ...outcome, status: 'error', message: e.message };
  } finally {
    if (setup.teardown) await setup.teardown().catch(() => undefined);
  }
}

/** --profile: stops the apps (each writes its .cpuprofile on exit), then the stage tables and flame graphs. */
async function writeProfile(dir, stack, outcomes) {
  await stack.stopApps();
  const windows = outcomes
    .filter((o) => o.status === 'ran' && o.profileWindow)
    .map((o) => ({ name: o.name, ...o.profileWindow, cpu: o.cpuUsPerRequest }));
  const apps = stack.processes.filter((p) => p.app).map((p) => p.name);
  const text = profile.analyse(dir, apps, windows);
  process.stdout.write(`\n${text}\n`);
  say(`profiles, flame graphs (<app>.flame.svg) and stages.md in ${dir}`);
}

async function main() {
  let options;
  try {
    options = parseOptions(process.argv.slice(2), process.env);
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (options.compare) {
    const { compare } = require('./compare');
    return compare(options.compare, options.rounds, forwardedArgs(process.argv.slice(2)));
  }
  if (options.list) {
    for (const s of scenarios) process.stdout.write(`${s.id.padEnd(14)} ${s.name}${s.stack ? ' (suite)' : ''}\n`);
    return 0;
  }
  let selected;
  try {
    selected = selectScenarios(options.scenarios);
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    return 2;
  }
  fs.mkdirSync(LOG_DIR, { recursive: true });
  const children = new Children(LOG_DIR);
  onCleanup('stop child processes', () => children.stopAll());

  const startedAt = new Date();
  const loadBefore = machineLoad();
  say(
    `${selected.length} scenario(s) on ${loadBefore.cores} cores (load average ${loadBefore.loadavg1}); ` +
      `child logs in ${path.relative(process.cwd(), LOG_DIR)}/`,
  );
  if (loadBefore.loadavg1 > loadBefore.cores / 2) {
    say('the machine is already busy: numbers will be depressed by the other work on it');
  }

  let stack;
  let stackError;
  if (selected.some((s) => s.stack) && !stopping) {
    try {
      stack = await startStack({ options, children, onCleanup, say });
    } catch (e) {
      stackError = e.message;
      process.stderr.write(`[bench] the suite did not start: ${e.message}\n`);
    }
  }
  const ctx = makeContext(options, children, stack);

  const outcomes = [];
  for (const [i, scenario] of selected.entries()) {
    if (stopping) return 130;
    if (i > 0 && scenario.stack && stack) {
      const { quiet, ms } = await waitForQuiet(stack.processes);
      say(
        quiet
          ? `suite quiet again after ${ms} ms`
          : `WARNING: the suite is still busy after ${ms} ms; measuring anyway`,
      );
    }
    const outcome = await runScenario(scenario, ctx, options);
    if (outcome.status === 'skip') say(`${scenario.name}: SKIPPED: ${outcome.message}`);
    if (outcome.status === 'error') {
      outcome.message = scenario.stack && !stack ? 'the suite did not start (see above)' : outcome.message;
      process.stderr.write(`[bench] ${scenario.name}: ERROR: ${outcome.message}\n`);
    }
    outcomes.push(outcome);
  }
  if (stopping) return 130;
  report.applyRelativeTargets(outcomes);
  if (stack && stack.profiling) await writeProfile(options.profileDir, stack, outcomes);

  const appNames = stack ? stack.processes.filter((p) => p.app).map((p) => p.name) : [];
  const memory = report.memoryVerdicts(
    outcomes.filter((o) => o.status === 'ran'),
    appNames,
  );
  const loadAfter = machineLoad();
  process.stdout.write(`\n${report.scenarioTable(outcomes)}\n`);
  if (appNames.length) process.stdout.write(`\n${report.memoryTable(memory)}\n`);
  for (const o of outcomes.filter((x) => x.status !== 'ran' || x.verdict.misses.length)) {
    process.stdout.write(`  ${o.name}: ${o.status === 'ran' ? o.verdict.misses.join(', ') : o.message}\n`);
  }
  for (const o of outcomes.filter((x) => x.status === 'ran' && x.result.note)) {
    process.stdout.write(`  ${o.name}: ${o.result.note}\n`);
  }
  for (const o of outcomes.filter((x) => x.share !== undefined && !x.verdict.misses.length)) {
    process.stdout.write(`  ${o.name}: ${(o.share * 100).toFixed(0)}% of ${o.shareOf}\n`);
  }
  process.stdout.write(
    `\n${options.connections} connections, ${options.warmup} s warm-up + ${options.duration} s per scenario; ` +
      `${loadAfter.cores} cores, load average ${loadAfter.loadavg1} (1 min) at the end. The load generator shares ` +
      'the machine with the servers: read the numbers relative to the baselines.\n',
  );

  const json = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    node: process.version,
    host: { cores: loadAfter.cores, cpu: os.cpus()[0] && os.cpus()[0].model, loadBefore, loadAfter },
    options: { ...options, help: undefined, list: undefined },
    suiteError: stackError,
    scenarios: outcomes.map((o) => ({ ...o, verdict: o.verdict && o.verdict.status })),
    memory,
  };
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(json, null, 2)}\n`);
  say(`results written to ${path.relative(process.cwd(), path.join(RESULTS_DIR, 'latest.json'))}`);
  return outcomes.some((o) => o.status === 'error') ? 1 : 0;
}

main()
  .then(async (code) => {
    await cleanup();
    process.exit(code);
  })
  .catch((e) => exitAfterCleanup(1, e.stack || e.message));
