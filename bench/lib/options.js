'use strict';

const path = require('node:path');

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
  --profile[=DIR]         BENCH_PROFILE=DIR       CPU profile of every app (a .cpuprofile and a flame graph each),
                                                  CPU µs per request by stage, PostgreSQL statements and NATS
                                                  messages per request, written to DIR (default bench/results/profile)
  --compare=REF                                   also build REF (a commit, branch or tag) in a worktree and run
                                                  both builds alternately with the other options (bench/compare.js)
  --rounds=N                                      with --compare: rounds of one run of each build (default 2)
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
  // `--compare REF` as well as `--compare=REF`.
  const i = argv.indexOf('--compare');
  if (i >= 0 && argv[i + 1] && !argv[i + 1].startsWith('--')) {
    argv = [...argv.slice(0, i), `--compare=${argv[i + 1]}`, ...argv.slice(i + 2)];
  }
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
    'profile',
    'compare',
    'rounds',
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
    profileDir: profileDirOf(flags.profile ?? env.BENCH_PROFILE),
    compare: flags.compare === true ? missing('--compare needs a ref: --compare=main') : flags.compare,
    rounds: Math.round(number('rounds', flags.rounds, 2)),
  };
}

function missing(message) {
  throw new Error(message);
}

function profileDirOf(raw) {
  if (raw === undefined || raw === '' || raw === false) return undefined;
  return raw === true || raw === '1' ? path.join(__dirname, '..', 'results', 'profile') : path.resolve(String(raw));
}

/** The arguments for the runs of a comparison: every option as given but --compare and --rounds. */
function forwardedArgs(argv) {
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--compare' && argv[i + 1] && !argv[i + 1].startsWith('--')) i++;
    else if (!/^--(compare|rounds)(=|$)/.test(argv[i])) out.push(argv[i]);
  }
  return out;
}

module.exports = { forwardedArgs, parseOptions, USAGE };
