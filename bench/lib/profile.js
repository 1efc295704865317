'use strict';

/**
 * `npm run bench -- --profile[=DIR]`: what one request of each scenario costs, process by process.
 * - Every app runs with `--cpu-prof --cpu-prof-dir=DIR/<app>`; when the apps stop, each profile gives a flame
 *   graph (DIR/<app>.flame.svg, over the measured seconds of every scenario) and the CPU µs per request by stage
 *   of each scenario (bench/lib/cpuprofile.js STAGES), printed and written to DIR/stages.md.
 * - PostgreSQL: per statement calls, time and rows of the bench's databases, from pg_stat_statements when the
 *   server preloads it, else from the server log (`log_min_duration_statement = 0` set on the bench databases
 *   only), plus transactions per request from pg_stat_database.
 * - NATS: messages in and out of the private nats-server per request (its /varz).
 */

const fs = require('node:fs');
const path = require('node:path');
const { Client } = require('pg');
const cpuprofile = require('./cpuprofile');
const { flameGraphSvg } = require('./flame-graph');

const PG_LOG_DIR = '/var/log/postgresql';

async function withClient(url, fn) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Empties the apps' profile folders of an earlier run. */
function clean(dir, apps) {
  for (const app of apps) fs.rmSync(path.join(dir, app), { recursive: true, force: true });
}

/** Node flags of an app under --profile. */
function appNodeArgs(dir, app) {
  const out = path.join(dir, app);
  fs.mkdirSync(out, { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${out}`];
}

/** Before the apps connect: statements of the bench databases logged with their duration, if no extension. */
async function prepareDatabases(pgBase, databaseNames) {
  const preloaded = await withClient(`${pgBase}/postgres`, async (c) => {
    const { rows } = await c.query('SHOW shared_preload_libraries');
    return rows[0].shared_preload_libraries.includes('pg_stat_statements');
  });
  for (const name of databaseNames) {
    await withClient(`${pgBase}/postgres`, (c) =>
      c.query(preloaded ? `SELECT 1` : `ALTER DATABASE "${name}" SET log_min_duration_statement = 0`),
    );
    if (preloaded)
      await withClient(`${pgBase}/${name}`, (c) => c.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements'));
  }
  return { source: preloaded ? 'pg_stat_statements' : 'log' };
}

function logFile() {
  try {
    const files = fs.readdirSync(PG_LOG_DIR).filter((f) => f.endsWith('.log'));
    return files.length ? path.join(PG_LOG_DIR, files.sort().at(-1)) : undefined;
  } catch {
    return undefined;
  }
}

async function natsCounts(monitorUrl) {
  if (!monitorUrl) return undefined;
  try {
    const v = await (await fetch(`${monitorUrl}/varz`)).json();
    return { in: v.in_msgs, out: v.out_msgs };
  } catch {
    return undefined;
  }
}

async function databaseCounts(pgBase, prefix) {
  return withClient(`${pgBase}/postgres`, async (c) => {
    const { rows } = await c.query(
      `SELECT datname, xact_commit::bigint AS commits, xact_rollback::bigint AS rollbacks, tup_inserted::bigint AS inserted,
              tup_updated::bigint AS updated, tup_fetched::bigint AS fetched
         FROM pg_stat_database WHERE datname LIKE $1`,
      [`${prefix}\\_%`],
    );
    return Object.fromEntries(rows.map((r) => [r.datname.slice(prefix.length + 1), r]));
  });
}

/** Samples the counters now; `finish(requests)` gives them per request. */
async function startCounting({ stack, pg }) {
  const file = pg.source === 'log' ? logFile() : undefined;
  const before = {
    nats: await natsCounts(stack.natsMonitorUrl),
    db: await databaseCounts(stack.pgBase, stack.databasePrefix),
    logOffset: file ? fs.statSync(file).size : undefined,
  };
  return {
    async finish(requests) {
      const nats = await natsCounts(stack.natsMonitorUrl);
      const db = await databaseCounts(stack.pgBase, stack.databasePrefix);
      const per = (a, b) => Number(((Number(a) - Number(b)) / requests).toFixed(2));
      const databases = {};
      for (const [name, row] of Object.entries(db)) {
        const was = before.db[name];
        if (!was) continue;
        const d = Object.fromEntries(
          ['commits', 'rollbacks', 'inserted', 'updated', 'fetched'].map((k) => [k, per(row[k], was[k])]),
        );
        if (Object.values(d).some((x) => x > 0)) databases[name] = d;
      }
      const statements = file ? statementsFromLog(file, before.logOffset, stack.databasePrefix, requests) : undefined;
      return {
        requests,
        natsPerRequest:
          nats && before.nats ? { in: per(nats.in, before.nats.in), out: per(nats.out, before.nats.out) } : undefined,
        databasesPerRequest: databases,
        statements,
      };
    },
  };
}

/** `duration: 0.052 ms  execute s12: SELECT …` lines of the bench's databases, grouped by database and text. */
function statementsFromLog(file, offset, prefix, requests) {
  const fd = fs.openSync(file, 'r');
  const size = fs.fstatSync(fd).size;
  const buffer = Buffer.alloc(Math.max(0, size - offset));
  fs.readSync(fd, buffer, 0, buffer.length, offset);
  fs.closeSync(fd);
  const groups = new Map();
  const line = new RegExp(
    `@${prefix}_([a-z_]+) LOG:  duration: ([0-9.]+) ms  (statement|execute|parse|bind)( [^:]*)?: (.*)$`,
  );
  for (const text of buffer.toString('utf8').split('\n')) {
    const m = line.exec(text);
    if (!m) continue;
    const [, database, ms, step, , sql] = m;
    const key = `${database}\t${sql.replace(/\s+/g, ' ').slice(0, 160)}`;
    const g = groups.get(key) ?? { database, sql: sql.replace(/\s+/g, ' ').slice(0, 160), calls: 0, ms: 0 };
    if (step === 'execute' || step === 'statement') g.calls++;
    g.ms += Number(ms);
    groups.set(key, g);
  }
  return [...groups.values()]
    .map((g) => ({
      ...g,
      callsPerRequest: Number((g.calls / requests).toFixed(3)),
      usPerRequest: Math.round((g.ms * 1000) / requests),
    }))
    .sort((a, b) => b.usPerRequest - a.usPerRequest);
}

/** The profiles of one app, newest last (a restarted app leaves one per process). */
function profilesOf(dir, app) {
  const d = path.join(dir, app);
  if (!fs.existsSync(d)) return [];
  return fs
    .readdirSync(d)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort()
    .map((f) => path.join(d, f));
}

/**
 * After the apps stopped: per scenario (its measured window and request count), CPU µs per request by stage
 * and app; one flame graph per app over every measured window. Answers the markdown written to DIR/stages.md.
 */
function analyse(dir, apps, windows) {
  const perScenario = windows.map((w) => ({ ...w, stages: {} }));
  for (const app of apps) {
    const all = [];
    const counts = perScenario.map(() => ({}));
    for (const file of profilesOf(dir, app)) {
      const p = cpuprofile.load(file);
      perScenario.forEach((w, i) => {
        const samples = cpuprofile.inWindow(p.samples, w.fromUs, w.toUs);
        all.push(...samples);
        for (const [stage, n] of Object.entries(cpuprofile.byStage(samples)))
          counts[i][stage] = (counts[i][stage] ?? 0) + n;
      });
    }
    // Each stage's share of the samples times the process's CPU per request (/proc): µs per request.
    perScenario.forEach((w, i) => {
      const samples = Object.values(counts[i]).reduce((a, b) => a + b, 0);
      const cpuUs = w.cpu && w.cpu[app];
      if (!samples || !cpuUs) return;
      for (const [stage, n] of Object.entries(counts[i])) {
        w.stages[stage] ??= {};
        w.stages[stage][app] = (n / samples) * cpuUs;
      }
    });
    if (all.length)
      fs.writeFileSync(path.join(dir, `${app}.flame.svg`), flameGraphSvg(all, `${app}: measured seconds`));
  }
  // nats-server and PostgreSQL as whole processes (no profile of their own).
  for (const w of perScenario) {
    for (const [name, column] of [
      ['nats-server', 'nats-server'],
      ['postgres (bench databases)', 'postgres'],
    ]) {
      if (w.cpu && w.cpu[name]) w.stages[`${column} (whole process)`] = { [column]: w.cpu[name] };
    }
  }
  const sections = perScenario.map((w) => stageTable(w, apps));
  const text = `${sections.join('\n\n')}\n`;
  fs.writeFileSync(path.join(dir, 'stages.md'), text);
  return text;
}

function stageTable(w, apps) {
  const used = [...apps, 'nats-server', 'postgres'].filter((a) => Object.values(w.stages).some((s) => s[a]));
  const rows = Object.entries(w.stages)
    .map(([stage, byApp]) => ({ stage, byApp, total: Object.values(byApp).reduce((a, b) => a + b, 0) }))
    .sort((a, b) => b.total - a.total);
  const sum = (app) => rows.reduce((a, r) => a + (r.byApp[app] ?? 0), 0);
  const lines = [
    `### CPU µs per request by stage: ${w.name} (${w.requests.toLocaleString('en-US')} requests)`,
    '',
    "Each app's CPU per request (/proc) split by the share of its profile's samples in each stage.",
    '',
    `| stage | ${used.join(' | ')} | all |`,
    `|---|${used.map(() => '---:').join('|')}|---:|`,
    ...rows.map(
      (r) => `| ${r.stage} | ${used.map((a) => Math.round(r.byApp[a] ?? 0)).join(' | ')} | ${Math.round(r.total)} |`,
    ),
    `| **sum** | ${used.map((a) => Math.round(sum(a))).join(' | ')} | ${Math.round(rows.reduce((a, r) => a + r.total, 0))} |`,
  ];
  if (w.cpu) {
    const whole = Object.entries(w.cpu).map(([name, us]) => `${name} ${us}`);
    lines.push('', `CPU µs per request of each whole process (/proc, the same seconds): ${whole.join(', ')}.`);
  }
  const c = w.counts;
  if (c && c.natsPerRequest)
    lines.push('', `NATS messages per request: ${c.natsPerRequest.in} in, ${c.natsPerRequest.out} out.`);
  if (c && c.databasesPerRequest) {
    const dbs = Object.entries(c.databasesPerRequest).map(
      ([db, d]) => `${db} ${d.commits} commits, ${d.inserted} inserted, ${d.updated} updated, ${d.fetched} fetched`,
    );
    if (dbs.length) lines.push('', `PostgreSQL per request: ${dbs.join('; ')}.`);
  }
  if (c && c.statements && c.statements.length) {
    lines.push(
      '',
      '| database | statement | calls per request | server µs per request (wall, from the log) |',
      '|---|---|---:|---:|',
    );
    for (const s of c.statements.slice(0, 25)) {
      lines.push(`| ${s.database} | \`${s.sql.replace(/\|/g, '\\|')}\` | ${s.callsPerRequest} | ${s.usPerRequest} |`);
    }
  }
  return lines.join('\n');
}

module.exports = { analyse, appNodeArgs, clean, prepareDatabases, startCounting };
