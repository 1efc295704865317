'use strict';

const MEMORY_LIMIT_MB = 200;

/** PASS/MISS against a scenario target, or '' when the scenario has none. */
function verdict(target, result, eventsPerRequest) {
  if (!target || !result) return { status: '', misses: [] };
  const misses = [];
  const events = eventsPerSec(eventsPerRequest, result);
  if (target.minEventsPerSec !== undefined && !(events >= target.minEventsPerSec))
    misses.push(`events/s ${events} < ${target.minEventsPerSec}`);
  if (target.minRps !== undefined && !(result.rps >= target.minRps))
    misses.push(`req/s ${result.rps} < ${target.minRps}`);
  if (target.maxP99Ms !== undefined && !(result.latencyMs.p99 <= target.maxP99Ms)) {
    misses.push(`p99 ${result.latencyMs.p99} ms > ${target.maxP99Ms} ms`);
  }
  if (target.maxErrors !== undefined && result.errors > target.maxErrors) misses.push(`${result.errors} errors`);
  if (target.maxNon2xx !== undefined && result.non2xx > target.maxNon2xx) misses.push(`${result.non2xx} non-2xx`);
  return { status: misses.length ? 'MISS' : 'PASS', misses };
}

/** Events per second of a scenario whose requests carry `eventsPerRequest` events each (usage batches). */
function eventsPerSec(eventsPerRequest, result) {
  if (!eventsPerRequest || !result) return undefined;
  // Only answered requests count: a request that failed recorded nothing.
  const answered = result.requests ? (result.requests - (result.non2xx || 0)) / result.requests : 1;
  return Math.round(result.rps * eventsPerRequest * answered);
}

/**
 * Targets relative to another scenario of the same run (`minShareOf: {id, share}`: at least that share of its
 * req/s), judged once every scenario ran; the verdict names the other scenario's figure.
 *
 * `ceilingRps` is the most a closed loop can reach whatever the server does (connections / latency floor: 256
 * connections each waiting at least 200 ms make at most 1,280 req/s). The share is taken of the smaller of the
 * two, so that a faster host, whose other scenario outruns that ceiling, does not turn physics into a miss.
 */
function applyRelativeTargets(outcomes) {
  for (const o of outcomes) {
    const rel = o.target && o.target.minShareOf;
    if (!rel || o.status !== 'ran') continue;
    const base = outcomes.filter((x) => x.id === rel.id && x.status === 'ran').pop();
    const misses = [...o.verdict.misses];
    if (!base) misses.push(`no ${rel.id} run to compare with`);
    else {
      const capped = rel.ceilingRps !== undefined && rel.ceilingRps < base.result.rps;
      const reference = capped ? rel.ceilingRps : base.result.rps;
      const share = o.result.rps / reference;
      o.share = Number(share.toFixed(3));
      o.shareOf = capped
        ? `the ${rel.ceilingRps} req/s ceiling (${rel.id}: ${base.result.rps} req/s)`
        : `${rel.id} (${base.result.rps} req/s)`;
      if (!(share >= rel.share)) misses.push(`${(share * 100).toFixed(0)}% of ${o.shareOf} < ${rel.share * 100}%`);
    }
    o.verdict = { status: misses.length ? 'MISS' : 'PASS', misses };
  }
}

/** The largest RSS each app process reached in any scenario, against the 200 MB budget. */
function memoryVerdicts(outcomes, appNames) {
  return appNames.map((name) => {
    const samples = outcomes.map((o) => o.rssMb && o.rssMb[name]).filter((v) => typeof v === 'number');
    const maxMb = samples.length ? Math.max(...samples) : null;
    const status = maxMb === null ? '' : maxMb <= MEMORY_LIMIT_MB ? 'PASS' : 'MISS';
    return { app: name, maxRssMb: maxMb === null ? null : Number(maxMb.toFixed(1)), limitMb: MEMORY_LIMIT_MB, status };
  });
}

const int = (n) => (typeof n === 'number' ? Math.round(n).toLocaleString('en-US') : '-');
const ms = (n) => (typeof n === 'number' ? `${n} ms` : '-');

function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const numeric = header.map((_h, i) => rows.every((r) => /^[-\d,.]+( ms)?$/.test(String(r[i]))));
  const line = (cells) =>
    cells.map((c, i) => (numeric[i] ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function scenarioTable(outcomes) {
  const rows = outcomes.map((o) => {
    const r = o.result;
    const result = o.status === 'ran' ? o.verdict.status : o.status.toUpperCase();
    return [
      o.name,
      r ? int(r.rps) : '-',
      o.eventsPerSec !== undefined ? int(o.eventsPerSec) : '-',
      r ? ms(r.latencyMs.p50) : '-',
      r ? ms(r.latencyMs.p97_5) : '-',
      r ? ms(r.latencyMs.p99) : '-',
      r ? int(r.non2xx) : '-',
      r ? int(r.errors) : '-',
      o.target ? o.target.label : '',
      result,
    ];
  });
  return table(['scenario', 'req/s', 'events/s', 'p50', 'p97.5', 'p99', 'non-2xx', 'errors', 'target', 'result'], rows);
}

function memoryTable(verdicts) {
  return table(
    ['app', 'max RSS', 'target', 'result'],
    verdicts.map((v) => [
      v.app,
      v.maxRssMb === null ? '-' : `${v.maxRssMb.toFixed(1)} MB`,
      `<= ${v.limitMb} MB`,
      v.status,
    ]),
  );
}

/** "gateway 97%, payments 41%" */
function formatCpu(cpu) {
  if (!cpu) return '';
  const parts = Object.entries(cpu.perProcess).map(([name, pct]) => `${name} ${pct}%`);
  if (cpu.machine)
    parts.push(`machine ${cpu.machine.busyPct}% of ${cpu.machine.cores * 100}% (others ${cpu.machine.othersPct}%)`);
  return parts.join(', ');
}

/**
 * CPU microseconds each process spent per request: unlike req/s this hardly moves when other work shares
 * the machine, and the largest one says which process caps the throughput (1e6 / µs = req/s at 100 % of a core).
 */
function cpuPerRequest(cpu, rps, only) {
  if (!cpu || !rps) return {};
  const out = {};
  for (const [name, pct] of Object.entries(cpu.perProcess)) {
    if (only && !only.has(name) && name !== 'postgres (bench databases)') continue;
    // A process under 1 % of a core is idle in this scenario (payment-links, billing) and left out.
    if (name === 'bench' || name === 'postgres (all clients)' || pct < 1) continue;
    out[name] = Math.round(((pct / 100) * 1e6) / rps);
  }
  // Every process of the suite, its PostgreSQL backends included (issue #48's "CPU per purchase").
  const sum = Object.values(out).reduce((a, b) => a + b, 0);
  if (sum && out['postgres (bench databases)'] !== undefined) out.total = sum;
  return out;
}

function formatCpuPerRequest(perRequest) {
  return Object.entries(perRequest)
    .map(([name, us]) => `${name} ${us} µs (max ${Math.round(1e6 / us).toLocaleString('en-US')} req/s per core)`)
    .join(', ');
}

function formatRss(rss, heap = {}) {
  return Object.entries(rss || {})
    .map(([name, mb]) => `${name} ${mb.toFixed(0)} MB${heap[name] ? ` (heap ${heap[name].used.toFixed(0)} MB)` : ''}`)
    .join(', ');
}

module.exports = {
  cpuPerRequest,
  eventsPerSec,
  formatCpu,
  formatCpuPerRequest,
  formatRss,
  memoryTable,
  memoryVerdicts,
  scenarioTable,
  verdict,
  applyRelativeTargets,
};
