'use strict';

/**
 * The bench scenarios, run in this order. To add one, append an object:
 *
 *   {
 *     id: 'short-id',              // what --scenarios / BENCH_SCENARIOS select
 *     name: 'what the table shows',
 *     stack: true,                 // needs the suite (gateway + services); ctx.stack is set then
 *     rate: 300,                   // optional fixed rate (autocannon overallRate); default: as fast as possible
 *     connections: 8,              // optional; default: the run's --connections
 *     eventsPerRequest: 1000,      // optional: also report events/s (target.minEventsPerSec)
 *     target: { minRps, maxP99Ms, maxErrors, maxNon2xx, label },  // optional; every bound given must hold
 *     async setup(ctx) {           // returns { skip: 'why' } or
 *       return { request, processes, teardown };
 *     },
 *   }
 *
 * A scenario that measures itself (webhook-scenarios.js) returns `measure({ onMeasureStart })` instead of
 * `request` (and a `describe` line): it calls onMeasureStart when the measured part begins and answers what
 * autocannon's summary holds ({ rps, requests, latencyMs: {p50, p97_5, p99}, non2xx, errors, statusCodes }) and
 * an optional `note` printed under the table.
 *
 * `request` is autocannon's: url plus method/headers/body, or `requests` with `setupRequest` for a body that
 * changes per request. `processes` ([{name, pid}]) are measured (CPU, RSS) besides the suite's own;
 * `teardown` runs after the scenario. The runner adds connections (a scenario's own `connections` wins),
 * duration, warm-up and rate. A `target.minShareOf: {id, share}` is judged against that scenario's req/s.
 *
 * ctx: { options, stack: {gatewayUrl, merchantCode, key, pgBase, restartApp(name, env)}, say(text), memo(key, fn),
 *        startServer(name, script, env) → {url, processes, teardown}, createDatabase(suffix) → url }
 */

const path = require('node:path');

const PURCHASE_PATH = '/v1/payment/purchase';

function purchaseBody(merchantCode, orderCode) {
  return {
    merchantCode,
    orderCode,
    amount: { currency: 'USD', value: 1999, exponent: 2 },
    card: {
      cardData: {
        cardNumber: '4111111111111111',
        cardholderName: 'Bench Tester',
        expiryMonth: '12',
        expiryYear: String(new Date().getFullYear() + 3),
        cvv: '123',
      },
    },
  };
}

/** Requests whose body carries a fresh orderCode each time (an orderCode is unique per merchant). */
function uniqueOrderRequests({ path: route, headers, merchantCode }) {
  const prefix = `bench-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}-`;
  let n = 0;
  return [
    {
      method: 'POST',
      path: route,
      headers: { 'content-type': 'application/json', ...headers },
      setupRequest(request) {
        request.body = JSON.stringify(purchaseBody(merchantCode, `${prefix}${++n}`));
        return request;
      },
    },
  ];
}

/**
 * One purchase before loading the route: a 404 "Cannot POST" means the route is not built yet (skip, do not
 * fail); any other non-2xx means the bench body or the stack is wrong, which should not be hidden.
 */
async function probePurchase(stack) {
  const res = await fetch(`${stack.gatewayUrl}${PURCHASE_PATH}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(purchaseBody(stack.merchantCode, `bench-probe-${Date.now()}`)),
  });
  const text = await res.text();
  let error;
  try {
    error = JSON.parse(text).error;
  } catch {
    error = undefined;
  }
  if (res.status === 404 && error && error.code === 'NOT_FOUND' && /^Cannot POST/i.test(error.message || '')) {
    return { skip: `POST ${PURCHASE_PATH} answers 404 NOT_FOUND "${error.message}": the route is not built yet` };
  }
  if (res.status < 200 || res.status > 299) {
    throw new Error(`probe POST ${PURCHASE_PATH} answered ${res.status}: ${text.slice(0, 400)}`);
  }
  return { ok: true };
}

async function purchaseSetup(ctx) {
  const probe = await ctx.memo('purchase-probe', () => probePurchase(ctx.stack));
  if (probe.skip) return { skip: probe.skip };
  const { gatewayUrl, key, merchantCode } = ctx.stack;
  return {
    request: {
      url: gatewayUrl,
      requests: uniqueOrderRequests({ path: PURCHASE_PATH, headers: { authorization: `Bearer ${key}` }, merchantCode }),
    },
  };
}

function installed(moduleName) {
  try {
    require.resolve(moduleName);
    return true;
  } catch {
    return false;
  }
}

function serverScenario(id, name, script, { env = {}, requires } = {}) {
  return {
    id,
    name,
    async setup(ctx) {
      if (requires && !installed(requires)) return { skip: `${requires} is not installed` };
      const server = await ctx.startServer(id, path.join(__dirname, 'servers', script), env);
      return { request: { url: `${server.url}/hello` }, processes: server.processes, teardown: server.teardown };
    },
  };
}

const ACQUIRER_LATENCY_MS = 200;
const ACQUIRER_CONNECTIONS = 256;
/** The most ACQUIRER_CONNECTIONS can make when each waits ACQUIRER_LATENCY_MS for every answer. */
const ACQUIRER_CEILING_RPS = (ACQUIRER_CONNECTIONS * 1000) / ACQUIRER_LATENCY_MS;

const scenarios = [
  {
    id: 'ping',
    name: 'ping round trip (gateway→NATS→payments)',
    stack: true,
    target: { minRps: 3000, label: '>= 3,000 req/s' },
    async setup(ctx) {
      const { gatewayUrl, key } = ctx.stack;
      return { request: { url: `${gatewayUrl}/v1/ping`, headers: { authorization: `Bearer ${key}` } } };
    },
  },
  {
    id: 'purchase',
    name: 'card purchase (max rate)',
    stack: true,
    target: { minRps: 1000, label: '>= 1,000 req/s' },
    setup: purchaseSetup,
  },
  {
    id: 'purchase-300',
    name: 'card purchase @ 300 req/s',
    stack: true,
    rate: 300,
    target: { maxP99Ms: 50, maxErrors: 0, maxNon2xx: 0, label: 'p99 <= 50 ms, 0 errors' },
    setup: purchaseSetup,
  },
  {
    // No target: the latency of a purchase when the machine is nearly idle, to read purchase-300's against.
    id: 'purchase-50',
    name: 'card purchase @ 50 req/s (no target)',
    stack: true,
    rate: 50,
    setup: purchaseSetup,
  },
  {
    // No target: two builds' CPU per purchase at the same rate (CPU per request grows as the rate falls, so
    // max-rate runs of a busy host compare builds at different rates); reachable on a loaded host.
    id: 'purchase-100',
    name: 'card purchase @ 100 req/s (no target)',
    stack: true,
    rate: 100,
    setup: purchaseSetup,
  },
  {
    id: 'purchase-acquirer-200ms',
    name: 'card purchase, acquirer answering in 200 ms (max rate)',
    stack: true,
    // A 200 ms acquirer needs many requests in flight to keep the service busy: 256 at a time. Those 256 can
    // make at most 256 / 0.2 s = 1,280 req/s, so on a host where the zero-latency purchase outruns that, the
    // share is taken of the ceiling (bench/lib/report.js, applyRelativeTargets).
    connections: ACQUIRER_CONNECTIONS,
    target: {
      minShareOf: { id: 'purchase', share: 0.7, ceilingRps: ACQUIRER_CEILING_RPS },
      label: `>= 70% of the card purchase (or of ${ACQUIRER_CEILING_RPS.toLocaleString('en-US')}/s)`,
    },
    async setup(ctx) {
      const probe = await ctx.memo('purchase-probe', () => probePurchase(ctx.stack));
      if (probe.skip) return { skip: probe.skip };
      await ctx.stack.restartApp('payments', { SANDBOX_ACQUIRER_LATENCY_MS: String(ACQUIRER_LATENCY_MS) });
      const setup = await purchaseSetup(ctx);
      return { ...setup, teardown: () => ctx.stack.restartApp('payments', {}) };
    },
  },
  serverScenario('bare-fastify', 'baseline: bare Fastify JSON', 'bare-fastify.js', { requires: 'fastify' }),
  serverScenario('bare-express', 'baseline: bare Express JSON', 'bare-express.js', { requires: 'express' }),
  serverScenario('nest-fastify', 'Nest + FastifyAdapter JSON', 'nest-app.js', {
    env: { BENCH_ADAPTER: 'fastify' },
    requires: '@nestjs/platform-fastify',
  }),
  serverScenario('nest-express', 'Nest + ExpressAdapter JSON', 'nest-app.js', {
    env: { BENCH_ADAPTER: 'express' },
    requires: '@nestjs/platform-express',
  }),
  {
    id: 'pg-insert',
    name: 'baseline: bare Fastify + 1 pg INSERT',
    async setup(ctx) {
      const databaseUrl = await ctx.createDatabase('baseline');
      const server = await ctx.startServer('pg-insert', path.join(__dirname, 'servers', 'pg-insert.js'), {
        DATABASE_URL: databaseUrl,
      });
      return {
        request: { url: server.url, requests: uniqueOrderRequests({ path: '/purchase', merchantCode: 'bench' }) },
        processes: server.processes,
        teardown: server.teardown,
      };
    },
  },
];

scenarios.push(...require('./usage-scenarios'), ...require('./webhook-scenarios'), ...require('./connector-scenarios'));

module.exports = { scenarios, purchaseBody, probePurchase };
