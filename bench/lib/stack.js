'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { connect, nkeyAuthenticator } = require('nats');
const { Client } = require('pg');
const { withAppNodeOptions } = require('../../scripts/app-node-options');
const { turnOnAutovacuum } = require('./autovacuum');
const { freePort, sleep, waitForHttp } = require('./procs');
const profile = require('./profile');
const { prepareSecureNats } = require('./secure-nats');

const ROOT = path.resolve(__dirname, '..', '..');
const NATS_BINARIES = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'];

/** The apps and how each is started and probed; the gateway serves on PORT, services on their *_HTTP_PORT. */
const APPS = [
  { name: 'gateway', db: 'gateway', portVar: 'PORT', adminPortVar: 'ADMIN_PORT', dbVar: 'GATEWAY_DATABASE_URL' },
  { name: 'payments', db: 'payments', portVar: 'PAYMENTS_HTTP_PORT', dbVar: 'PAYMENTS_DATABASE_URL' },
  {
    name: 'payment-links',
    db: 'payment_links',
    portVar: 'PAYMENT_LINKS_HTTP_PORT',
    dbVar: 'PAYMENT_LINKS_DATABASE_URL',
  },
  { name: 'billing', db: 'billing', portVar: 'BILLING_HTTP_PORT', dbVar: 'BILLING_DATABASE_URL' },
  // Webhook delivery and the event store; a checkout from before the service existed delivers from the gateway.
  ...(fs.existsSync(path.join(ROOT, 'apps', 'webhooks', 'src', 'main.ts'))
    ? [{ name: 'webhooks', db: 'webhooks', portVar: 'WEBHOOKS_HTTP_PORT', dbVar: 'WEBHOOKS_DATABASE_URL' }]
    : []),
];

async function adminQuery(pgBase, sql) {
  const client = new Client({ connectionString: `${pgBase}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Fresh databases named `<prefix>_<suffix>`; the returned function drops them (it never throws). */
async function createDatabases(pgBase, prefix, suffixes) {
  const names = suffixes.map((s) => `${prefix}_${s}`);
  const created = [];
  const drop = async () => {
    const problems = [];
    for (const name of created) {
      await adminQuery(pgBase, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch((e) =>
        problems.push(`${name}: ${e.message}`),
      );
    }
    created.length = 0;
    return problems;
  };
  try {
    for (const name of names) {
      await adminQuery(pgBase, `CREATE DATABASE "${name}"`);
      created.push(name);
    }
  } catch (e) {
    await drop();
    throw new Error(`could not create database at ${pgBase}: ${e.message}`, { cause: e });
  }
  return { urls: Object.fromEntries(suffixes.map((s, i) => [s, `${pgBase}/${names[i]}`])), drop };
}

/** `secure`: connect as payments, over TLS, to a server of prepareSecureNats. */
async function waitForNats(url, timeoutMs = 10_000, secure = undefined) {
  const deadline = Date.now() + timeoutMs;
  const auth = secure && {
    tls: { caFile: secure.caFile },
    authenticator: nkeyAuthenticator(Buffer.from(secure.keys.payments.seed)),
  };
  let last;
  while (Date.now() < deadline) {
    try {
      const nc = await connect({ servers: url, timeout: 500, reconnect: false, ...auth });
      await nc.close();
      return;
    } catch (e) {
      last = e;
      await sleep(100);
    }
  }
  throw new Error(`NATS does not answer at ${url}: ${last && last.message}`);
}

/**
 * A private nats-server with JetStream when the binary exists: a developer's `npm start` on the shared NATS
 * subscribes to the same subjects in the same queue groups and would answer (and eat) part of our requests.
 */
async function startNats(children, fallbackUrl, say, secure = false) {
  const binary = NATS_BINARIES.find((b) => fs.existsSync(b));
  if (secure) {
    if (!binary) throw new Error('--secure-nats needs the nats-server binary');
    return startSecureNats(children, binary, say);
  }
  if (!binary) {
    say(`no nats-server binary found; using the shared NATS at ${fallbackUrl} (other subscribers may skew results)`);
    await waitForNats(fallbackUrl);
    return { url: fallbackUrl, entry: undefined, cleanup: async () => undefined };
  }
  const port = await freePort();
  const monitorPort = await freePort();
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-nats-'));
  const args = ['-a', '127.0.0.1', '-p', String(port), '-m', String(monitorPort), '-js', '-sd', storeDir];
  const entry = children.spawn('nats-server', binary, args, { PATH: process.env.PATH });
  const url = `nats://127.0.0.1:${port}`;
  await waitForNats(url);
  say(`private nats-server on ${url} (pid ${entry.pid})`);
  const cleanup = async () => {
    await children.stop(entry);
    fs.rmSync(storeDir, { recursive: true, force: true });
  };
  // Its monitoring endpoint (/varz: messages in and out) for the message counts of --profile.
  return { url, entry, cleanup, monitorUrl: `http://127.0.0.1:${monitorPort}` };
}

/** As k8s/nats runs it: TLS, an nkey per app and the generated permissions (bench/lib/secure-nats.js). */
async function startSecureNats(children, binary, say) {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-nats-'));
  const prepared = prepareSecureNats(dir, port);
  const entry = children.spawn('nats-server', binary, ['-c', prepared.configFile], {
    PATH: process.env.PATH,
    ...prepared.serverEnv,
  });
  await waitForNats(prepared.url, 10_000, prepared);
  say(`private nats-server with TLS, an nkey per app and their permissions on ${prepared.url} (pid ${entry.pid})`);
  const cleanup = async () => {
    await children.stop(entry);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { url: prepared.url, entry, cleanup, envOf: prepared.envOf };
}

async function adminPost(baseUrl, token, route, body) {
  const res = await fetch(`${baseUrl}/v1/admin/${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST /v1/admin/${route} answered ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

/**
 * The built suite as child processes on fresh databases: gateway, payments, payment-links, billing and webhooks,
 * a merchant and a sandbox private key. `onCleanup` receives each undo step as soon as there is something to
 * undo, so a failure or Ctrl-C halfway still drops what was created.
 */
async function startStack({ options, children, onCleanup, say }) {
  say(`autovacuum: ${await turnOnAutovacuum(options.pgBase)}`);
  const prefix = `bench_${crypto.randomBytes(4).toString('hex')}`;
  const dbs = await createDatabases(
    options.pgBase,
    prefix,
    APPS.map((a) => a.db),
  );
  onCleanup(`drop databases ${prefix}_*`, async () => {
    const problems = await dbs.drop();
    if (problems.length) throw new Error(problems.join('; '));
  });
  say(`databases ${prefix}_{${APPS.map((a) => a.db).join(',')}} created`);

  const profiling = options.profileDir
    ? await profile.prepareDatabases(
        options.pgBase,
        Object.values(dbs.urls).map((u) => u.slice(u.lastIndexOf('/') + 1)),
      )
    : undefined;
  if (profiling) {
    profile.clean(
      options.profileDir,
      APPS.map((a) => a.name),
    );
    say(`--profile: apps' CPU profiles to ${options.profileDir}, statements from ${profiling.source}`);
  }
  const nodeArgs = (app) => [
    ...options.appNodeArgs,
    ...(profiling ? profile.appNodeArgs(options.profileDir, app.name) : []),
  ];

  const nats = await startNats(children, options.natsUrl, say, options.secureNats);
  const natsEnvOf = (app) => (nats.envOf ? nats.envOf(app.name) : {});
  onCleanup('stop nats-server', nats.cleanup);

  const tracing = options.tracing ? await startTracingSink(children, say) : {};
  const adminToken = crypto.randomBytes(24).toString('base64url');
  const ports = {};
  for (const app of APPS) ports[app.portVar] = await freePort();
  // The gateway's admin API and /metrics answer on its internal port.
  ports.ADMIN_PORT = await freePort();
  const adminPort = (app) => ports[app.adminPortVar ?? app.portVar];
  const env = withAppNodeOptions({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'development',
    NATS_URL: nats.url,
    LOG_LEVEL: options.logLevel,
    ADMIN_TOKEN: adminToken,
    HOST: '127.0.0.1',
    RATE_LIMIT_PER_SECOND: '0',
    DEMO_MERCHANT: 'false',
    ...tracing,
    // A scenario's own settings of the apps (e.g. the renewal bench's RENEWAL_POLL_MS).
    ...(options.appEnv || {}),
    ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
    ...Object.fromEntries(APPS.map((a) => [a.dbVar, dbs.urls[a.db]])),
  });

  const started = Date.now();
  const entries = APPS.map((app) => {
    const main = path.join(ROOT, 'dist', 'apps', app.name, 'src', 'main.js');
    if (!fs.existsSync(main)) throw new Error(`${path.relative(ROOT, main)} is missing: run npm run build`);
    return {
      app,
      entry: children.spawn(app.name, process.execPath, [...nodeArgs(app), main], { ...env, ...natsEnvOf(app) }),
    };
  });
  onCleanup('stop apps', () => Promise.all(entries.map(({ entry }) => children.stop(entry))));
  await Promise.all(
    entries.map(({ app, entry }) =>
      waitForHttp(`http://127.0.0.1:${ports[app.portVar]}/health/ready`, entry, children),
    ),
  );
  const gatewayUrl = `http://127.0.0.1:${ports.PORT}`;
  say(
    `apps ready in ${((Date.now() - started) / 1000).toFixed(1)} s (gateway ${gatewayUrl}, LOG_LEVEL=${options.logLevel})`,
  );

  const merchantCode = `bench${crypto.randomBytes(3).toString('hex')}`;
  const adminUrl = `http://127.0.0.1:${ports.ADMIN_PORT}`;
  await adminPost(adminUrl, adminToken, 'merchants', { merchantCode, name: 'Bench merchant' });
  const { key } = await adminPost(adminUrl, adminToken, 'keys', {
    merchantCodes: [merchantCode],
    type: 'private',
    environment: 'sandbox',
  });
  say(`merchant ${merchantCode} and a sandbox private key created`);

  const processes = [
    ...entries.map(({ app, entry }) => ({
      name: app.name,
      pid: entry.pid,
      app: true,
      metricsUrl: `http://127.0.0.1:${adminPort(app)}/metrics`,
    })),
    ...(nats.entry ? [{ name: 'nats-server', pid: nats.entry.pid, app: false }] : []),
  ];

  /**
   * Restarts one app of the suite with `extraEnv` added (a scenario that needs another setting, e.g. a slow
   * sandbox acquirer); `processes` follows the new process. Restarting with `{}` puts the original back.
   */
  async function restartApp(name, extraEnv) {
    const i = entries.findIndex((e) => e.app.name === name);
    const { app, entry } = entries[i];
    await children.stop(entry);
    const main = path.join(ROOT, 'dist', 'apps', app.name, 'src', 'main.js');
    const next = children.spawn(app.name, process.execPath, [...nodeArgs(app), main], {
      ...env,
      ...natsEnvOf(app),
      ...extraEnv,
    });
    entries[i] = { app, entry: next };
    await waitForHttp(`http://127.0.0.1:${ports[app.portVar]}/health/ready`, next, children);
    processes.find((p) => p.name === name).pid = next.pid;
    say(`${name} restarted${Object.keys(extraEnv).length ? ` with ${JSON.stringify(extraEnv)}` : ''}`);
  }

  return {
    gatewayUrl,
    merchantCode,
    key,
    pgBase: options.pgBase,
    databases: dbs.urls,
    /** The databases' common prefix: their backends' command lines name it (the suite's PostgreSQL CPU). */
    databasePrefix: prefix,
    natsUrl: nats.url,
    natsMonitorUrl: nats.monitorUrl,
    restartApp,
    processes,
    profiling,
    /** Stops the apps (a profile is written when its process exits). */
    stopApps: () => Promise.all(entries.map(({ entry }) => children.stop(entry))),
    /** A routing connection of the bench merchant (admin API), e.g. one tried before the default `sandbox`. */
    addConnection: (body) => adminPost(adminUrl, adminToken, `merchants/${merchantCode}/connections`, body),
    /** A private key of the bench merchant in `environment` (admin API): `{ key }`. */
    createKey: (environment) =>
      adminPost(adminUrl, adminToken, 'keys', { merchantCodes: [merchantCode], type: 'private', environment }),
  };
}

/** `--tracing`: the discarding OTLP sink as a child, and the apps' settings that trace everything to it. */
async function startTracingSink(children, say) {
  const entry = children.fork('otlp-sink', path.join(__dirname, 'otlp-sink.js'), { PATH: process.env.PATH });
  const port = await children.listening(entry);
  say(`tracing on: every request traced, exported to the OTLP sink on port ${port}`);
  return { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_TRACES_SAMPLER_ARG: '1' };
}

module.exports = {
  createDatabases,
  startStack,
};
