'use strict';

/**
 * Webhook delivery (issue 35): how many deliveries a second reach a local HTTPS receiver, and how long a
 * 10,000-event backlog takes to drain once a dead endpoint answers again. The bench drives the suite through the
 * public REST API only (an endpoint registered with POST /v1/webhook-endpoint, events made by sandbox card
 * purchases: one `payment.captured` each), so it measures whichever app delivers: the webhooks service, or the
 * gateway of a checkout from before that service existed.
 *
 * These scenarios measure themselves (`measure` instead of an autocannon request): req/s is deliveries/s, the
 * latencies are from an event's creation to its first accepted delivery, non-2xx counts events never delivered.
 */

const crypto = require('node:crypto');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const https = require('node:https');
const os = require('node:os');
const { performance } = require('node:perf_hooks');
const path = require('node:path');
const { sleep } = require('./lib/procs');
const { publishedBacklog } = require('./webhook-published-backlog');

/** Purchases in flight while making events. */
const PRODUCERS = 32;
const BACKLOG = 10_000;
/**
 * During the backlog scenario: a failed try is due again 2 s later, up to 300 times (no delivery dies in an
 * outage of under 10 minutes). The default schedule (30 s, 5 min, 30 min, …) would make the drain wait for each
 * delivery's next slot and measure the schedule, not the delivery; with this one every failed try is due again
 * by the time the endpoint recovers.
 */
const BACKLOG_RETRY_SCHEDULE = Array(300).fill(2).join(',');

/** A self-signed certificate for 127.0.0.1 (openssl), in a temporary folder the teardown removes. */
function makeCertificate() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-webhook-'));
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
      ...['-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'],
      ...['-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')],
    ],
    { stdio: 'ignore' },
  );
  return { dir, certFile: path.join(dir, 'cert.pem'), keyFile: path.join(dir, 'key.pem') };
}

/** A JSON request to the receiver (HTTPS, its own certificate trusted). */
function receiverCall(receiver, method, route, body) {
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${receiver.url}${route}`,
      { method, ca: receiver.ca, headers: { 'content-type': 'application/json' } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null')));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function api(stack, method, route, body) {
  const res = await fetch(`${stack.gatewayUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${route} answered ${res.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** Sandbox purchases, PRODUCERS at a time, until `count` are made or `untilMs` passes. */
async function purchases(stack, { count = Infinity, untilMs = Infinity }) {
  // Required here: scenarios.js requires this file.
  const { purchaseBody } = require('./scenarios');
  const prefix = `hook-${crypto.randomBytes(4).toString('hex')}-`;
  let started = 0;
  let made = 0;
  let failed = 0;
  const worker = async () => {
    while (started < count && Date.now() < untilMs) {
      const n = ++started;
      const res = await fetch(`${stack.gatewayUrl}/v1/payment/purchase`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(purchaseBody(stack.merchantCode, `${prefix}${n}`)),
      }).catch(() => undefined);
      if (res) await res.arrayBuffer();
      if (res && res.status < 300) made++;
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: PRODUCERS }, worker));
  return { made, failed };
}

/** Polls the receiver until `done(stats)`, or throws after `timeoutMs` without progress. */
async function waitFor(receiver, done, what, timeoutMs = 120_000) {
  let last;
  let progressAt = Date.now();
  for (;;) {
    const stats = await receiverCall(receiver, 'GET', '/control/stats');
    if (done(stats)) return stats;
    const mark = `${stats.events}/${stats.accepted}/${stats.tries}`;
    if (mark !== last) [last, progressAt] = [mark, Date.now()];
    if (Date.now() - progressAt > timeoutMs) {
      throw new Error(`${what}: no progress for ${timeoutMs / 1000} s (${JSON.stringify(stats)})`);
    }
    await sleep(100);
  }
}

/**
 * The receiver, the delivering app restarted to trust it and reach 127.0.0.1, and an endpoint for
 * `payment.captured`, checked with one purchase. The teardown undoes all of it.
 */
async function webhookSetup(ctx, appEnv = {}) {
  const { stack } = ctx;
  const cert = makeCertificate();
  const server = await ctx.startServer('webhook-receiver', path.join(__dirname, 'servers', 'webhook-receiver.js'), {
    CERT_FILE: cert.certFile,
    KEY_FILE: cert.keyFile,
  });
  const receiver = { url: server.url.replace('http:', 'https:'), ca: fs.readFileSync(cert.certFile) };
  const deliverer = stack.processes.some((p) => p.name === 'webhooks') ? 'webhooks' : 'gateway';
  const env = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', NODE_EXTRA_CA_CERTS: cert.certFile, ...appEnv };
  await stack.restartApp(deliverer, env);
  let endpoint;
  const teardown = async () => {
    if (endpoint) await api(stack, 'DELETE', `/v1/webhook-endpoint/${endpoint.id}`).catch(() => undefined);
    await stack.restartApp(deliverer, {}).catch(() => undefined);
    await server.teardown();
    fs.rmSync(cert.dir, { recursive: true, force: true });
  };
  try {
    endpoint = await api(stack, 'POST', '/v1/webhook-endpoint', {
      url: `${receiver.url}/hook`,
      events: ['payment.captured'],
      description: 'bench',
    });
    const probe = await purchases(stack, { count: 1 });
    if (!probe.made) throw new Error('the probe purchase failed');
    await waitFor(receiver, (s) => s.accepted >= 1, `the probe's delivery (from ${deliverer})`, 30_000);
  } catch (e) {
    await teardown();
    throw e;
  }
  ctx.say(`  ${deliverer} delivers to ${receiver.url}/hook (endpoint ${endpoint.id})`);
  return { receiver, deliverer, processes: server.processes, teardown };
}

/** Deliveries while purchases make events for `seconds`, until every event made is delivered. */
async function deliverFor(stack, receiver, seconds) {
  await receiverCall(receiver, 'POST', '/control/reset');
  const startedAt = Date.now();
  const made = await purchases(stack, { untilMs: startedAt + seconds * 1000 });
  const producedMs = Date.now() - startedAt;
  const stats = await waitFor(receiver, (s) => s.accepted >= made.made, 'deliveries');
  return { made, producedMs, stats };
}

/** The receiver's TLS connections since its last reset (a receiver from before it counted them says nothing). */
function connectionsNote(stats) {
  if (stats.connections === undefined) return '';
  return `${stats.connections} TLS connections (${stats.resumed} resumed) for ${stats.tries} POSTs`;
}

function result({ delivered, missing, failedPurchases, fromMs, toMs, lagMs, note }) {
  const seconds = (toMs - fromMs) / 1000;
  return {
    rps: Number((delivered / seconds).toFixed(1)),
    requests: delivered,
    latencyMs: lagMs,
    non2xx: missing,
    errors: failedPurchases,
    statusCodes: {},
    durationSec: Number(seconds.toFixed(2)),
    note,
  };
}

const webhookScenarios = [
  {
    id: 'webhook-deliveries',
    name: 'webhook deliveries to an HTTPS receiver (deliveries/s)',
    stack: true,
    async setup(ctx) {
      const hooks = await webhookSetup(ctx);
      const { stack, options } = ctx;
      return {
        ...hooks,
        describe: `${PRODUCERS} purchases in flight make events, ${options.warmup} s warm-up + ${options.duration} s`,
        async measure({ onMeasureStart }) {
          if (options.warmup > 0) await deliverFor(stack, hooks.receiver, options.warmup);
          onMeasureStart();
          const { made, producedMs, stats } = await deliverFor(stack, hooks.receiver, options.duration);
          const madePerSec = Math.round((made.made * 1000) / producedMs);
          const tailMs = stats.lastAcceptedAt - stats.firstAcceptedAt - producedMs;
          return result({
            delivered: stats.accepted,
            missing: made.made - stats.accepted,
            failedPurchases: made.failed,
            fromMs: stats.firstAcceptedAt,
            toMs: stats.lastAcceptedAt,
            lagMs: stats.lagMs,
            note:
              `${made.made} events made at ${madePerSec}/s; the last delivered ${(Math.max(0, tailMs) / 1000).toFixed(1)} s ` +
              `after the last was made (${tailMs < 2000 ? 'delivery kept up' : 'a backlog built up: deliveries/s is the delivery rate'}); ` +
              connectionsNote(stats),
          });
        },
      };
    },
  },
  {
    id: 'webhook-backlog',
    name: `webhook backlog of ${BACKLOG.toLocaleString('en-US')} after a dead endpoint recovers (deliveries/s)`,
    stack: true,
    async setup(ctx) {
      const hooks = await webhookSetup(ctx, { WEBHOOK_RETRY_SCHEDULE: BACKLOG_RETRY_SCHEDULE });
      const { stack } = ctx;
      const { receiver } = hooks;
      return {
        ...hooks,
        describe: `the receiver answers 503 while ${BACKLOG} purchases make events, then 200 (WEBHOOK_RETRY_SCHEDULE 2 s × 300)`,
        async measure({ onMeasureStart }) {
          await receiverCall(receiver, 'POST', '/control/reset');
          await receiverCall(receiver, 'POST', '/control/status', { status: 503 });
          const outageAt = Date.now();
          const made = await purchases(stack, { count: BACKLOG });
          // Every event has had its first try refused: the whole backlog waits on the endpoint.
          await waitFor(receiver, (s) => s.events >= made.made, 'first tries during the outage', 300_000);
          onMeasureStart();
          const recovered = await receiverCall(receiver, 'POST', '/control/status', { status: 200 });
          const stats = await waitFor(receiver, (s) => s.accepted >= made.made, 'the drain', 300_000);
          const drainSec = (stats.lastAcceptedAt - recovered.recoveredAt) / 1000;
          return result({
            delivered: stats.accepted,
            missing: made.made - stats.accepted,
            failedPurchases: made.failed,
            fromMs: recovered.recoveredAt,
            toMs: stats.lastAcceptedAt,
            lagMs: { p50: null, p97_5: null, p99: null },
            note:
              `drained ${stats.accepted} events in ${drainSec.toFixed(1)} s after the endpoint recovered; ` +
              `outage ${((recovered.recoveredAt - outageAt) / 1000).toFixed(1)} s with ${recovered.refused} tries refused; ` +
              connectionsNote(stats),
          });
        },
      };
    },
  },
  receiverBaseline(
    'webhook-receiver-baseline',
    'baseline: HTTPS POSTs to the receiver, 20 at a time, a new connection each (as the sender did before keep-alive)',
    false,
  ),
  receiverBaseline(
    'webhook-receiver-keepalive',
    'baseline: HTTPS POSTs to the receiver, 20 keep-alive connections',
    true,
  ),
];

/**
 * What a delivery loop of 20 tries at a time could send to this receiver on this host: 20 POSTs in flight, each
 * on a new TLS connection as the sender makes them (`agent: false`: its DNS answer is pinned per try), or on
 * keep-alive connections.
 */
function receiverBaseline(id, name, keepAlive) {
  return {
    id,
    name,
    async setup(ctx) {
      const cert = makeCertificate();
      const server = await ctx.startServer('webhook-receiver', path.join(__dirname, 'servers', 'webhook-receiver.js'), {
        CERT_FILE: cert.certFile,
        KEY_FILE: cert.keyFile,
      });
      const url = server.url.replace('http:', 'https:');
      const ca = fs.readFileSync(cert.certFile);
      return {
        processes: server.processes,
        describe: `20 POSTs in flight, ${ctx.options.warmup} s warm-up + ${ctx.options.duration} s`,
        teardown: async () => {
          await server.teardown();
          fs.rmSync(cert.dir, { recursive: true, force: true });
        },
        measure: ({ onMeasureStart }) => postLoop(url, ca, keepAlive, ctx.options, onMeasureStart),
      };
    },
  };
}

async function postLoop(url, ca, keepAlive, { warmup, duration }, onMeasureStart) {
  const agent = keepAlive ? new https.Agent({ keepAlive: true, maxSockets: 20, ca }) : false;
  const body = JSON.stringify({ id: crypto.randomUUID(), type: 'payment.captured', createdAt: new Date(), data: {} });
  const post = () =>
    new Promise((resolve) => {
      const started = performance.now();
      const req = https.request(`${url}/hook`, { method: 'POST', agent, ca }, (res) => {
        res.resume();
        res.on('end', () => resolve({ ms: performance.now() - started, ok: res.statusCode < 300 }));
      });
      req.on('error', () => resolve({ ms: performance.now() - started, ok: false }));
      req.end(body);
    });
  const run = async (seconds) => {
    const until = Date.now() + seconds * 1000;
    const latencies = [];
    let failed = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (Date.now() < until) {
          const r = await post();
          latencies.push(r.ms);
          if (!r.ok) failed++;
        }
      }),
    );
    return { latencies: latencies.sort((a, b) => a - b), failed };
  };
  if (warmup > 0) await run(warmup);
  onMeasureStart();
  const { latencies, failed } = await run(duration);
  if (agent) agent.destroy();
  const at = (p) => Number(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(1));
  return {
    rps: Number((latencies.length / duration).toFixed(1)),
    requests: latencies.length,
    latencyMs: { p50: at(0.5), p97_5: at(0.975), p99: at(0.99) },
    non2xx: failed,
    errors: 0,
    statusCodes: {},
    durationSec: duration,
  };
}

webhookScenarios.splice(
  2,
  0,
  publishedBacklog({
    BACKLOG,
    BACKLOG_RETRY_SCHEDULE,
    webhookSetup,
    receiverCall,
    waitFor,
    api,
    result,
    connectionsNote,
  }),
);

module.exports = webhookScenarios;
