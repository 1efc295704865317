'use strict';

const USAGE = `Usage: npm run bench [-- --duration=10 --connections=100 --warmup=3 --scenarios=ping,bare-fastify]

Options (a flag wins over its environment variable):
  --duration=S            BENCH_DURATION          measured seconds per scenario (default 10)
  --warmup=S              BENCH_WARMUP            warm-up seconds before each scenario, not measured (default 3)
  --connections=N         BENCH_CONNECTIONS       concurrent connections (default 100)
  --scenarios=LIST        BENCH_SCENARIOS         comma-separated scenario ids (default: all; see --list)
  --log-level=LEVEL       BENCH_LOG_LEVEL         LOG_LEVEL of the apps (default warn; info logs every request)
  --app-node-args=S       BENCH_APP_NODE_ARGS     node flags for the apps, space-separated ("--cpu-prof --cpu-prof-dir=D")
  --pg=URL                BENCH_PG_URL            PostgreSQL server (default postgres://postgres@127.0.0.1:5432)
  --nats=URL              NATS_URL                NATS to use when nats-server cannot be started privately
  --secure-nats           BENCH_SECURE_NATS=1     the private nats-server as k8s/nats runs it: TLS, an nkey per app, their permissions
  --tracing               BENCH_TRACING=1         apps trace every request (OTEL_TRACES_SAMPLER_ARG=1) and export
                                                  over OTLP/HTTP to a local sink that discards (bench/lib/otlp-sink.js)
  --list                                          print the scenario ids and exit
  --help                                          this text`;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function number(name, raw, fallback, { allowZero = false } = {}) {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || (n === 0 && !allowZero)) {
    throw new Error(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, got "${raw}"`);
  }
  return n;
}

/** Options from `--name=value` flags, then BENCH_* environment variables, then defaults. */
function parseOptions(argv, env) {
  const flags = {};
  for (const arg of argv) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m) throw new Error(`Unknown argument "${arg}"\n\n${USAGE}`);
    flags[m[1]] = m[2] === undefined ? true : m[2];
  }
  const known = [
    'duration',
    'warmup',
    'connections',
    'scenarios',
    'log-level',
    'app-node-args',
    'pg',
    'nats',
    'secure-nats',
    'tracing',
    'list',
    'help',
  ];
  const unknown = Object.keys(flags).filter((f) => !known.includes(f));
  if (unknown.length) throw new Error(`Unknown option --${unknown[0]}\n\n${USAGE}`);

  const logLevel = flags['log-level'] ?? env.BENCH_LOG_LEVEL ?? 'warn';
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`log level must be one of ${LOG_LEVELS.join(', ')}`);
  const scenarios = String(flags.scenarios ?? env.BENCH_SCENARIOS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

  return {
    help: Boolean(flags.help),
    list: Boolean(flags.list),
    duration: number('duration', flags.duration ?? env.BENCH_DURATION, 10),
    warmup: number('warmup', flags.warmup ?? env.BENCH_WARMUP, 3, { allowZero: true }),
    connections: Math.round(number('connections', flags.connections ?? env.BENCH_CONNECTIONS, 100)),
    scenarios,
    logLevel,
    appNodeArgs: String(flags['app-node-args'] ?? env.BENCH_APP_NODE_ARGS ?? '')
      .split(/\s+/)
      .filter(Boolean),
    pgBase: String(flags.pg ?? env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/+$/, ''),
    natsUrl: String(flags.nats ?? env.NATS_URL ?? 'nats://127.0.0.1:4222'),
    secureNats: Boolean(flags['secure-nats'] ?? env.BENCH_SECURE_NATS === '1'),
    tracing: Boolean(flags.tracing) || env.BENCH_TRACING === '1',
  };
}

module.exports = { parseOptions, USAGE };
