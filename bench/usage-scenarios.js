'use strict';

/**
 * Metered usage ingestion through the gateway (issue 10, Performance): events per second and p99 of
 * `POST /v1/subscription/usage` (one event per request) and `POST /v1/subscription/usage/batch` (1,000 events
 * per request). Every event carries its own idempotency key, as a careful integration sends them, and the
 * events are spread over a few subscriptions.
 */

const crypto = require('node:crypto');

const SUBSCRIPTIONS = 10;
const BATCH_SIZE = 1000;
const METER_CODE = 'bench_api_calls';

async function call(stack, method, route, body) {
  const res = await fetch(`${stack.gatewayUrl}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${stack.key}`,
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text };
}

const notBuilt = (r) =>
  r.status === 404 && r.body && r.body.error && /^Cannot (POST|GET)/i.test(r.body.error.message || '');

/** A meter, a plan pricing it and SUBSCRIPTIONS subscriptions of the bench merchant, made once per run. */
async function usageFixture(stack) {
  const meter = await call(stack, 'POST', '/v1/subscription/meter', {
    code: METER_CODE,
    name: 'Bench API calls',
    aggregation: 'sum',
    includedUnits: 1000,
    pricing: { scheme: 'per_unit', unitAmount: 1 },
  });
  if (notBuilt(meter)) return { skip: 'POST /v1/subscription/meter is not built yet' };
  if (meter.status !== 201) throw new Error(`meter: ${meter.status} ${meter.text.slice(0, 300)}`);
  const plan = await call(stack, 'POST', '/v1/subscription/plan', {
    name: 'Bench metered',
    interval: 'month',
    amount: 1000,
    currency: 'USD',
    meterCodes: [METER_CODE],
  });
  if (plan.status !== 201) throw new Error(`plan: ${plan.status} ${plan.text.slice(0, 300)}`);
  const ids = [];
  for (let i = 0; i < SUBSCRIPTIONS; i++) {
    const sub = await call(stack, 'POST', '/v1/subscription', {
      planId: plan.body.id,
      customerEmail: `bench${i}@example.com`,
      // The purchase scenarios' card (required here, not at load: scenarios.js requires this file).
      card: require('./scenarios').purchaseBody(stack.merchantCode, 'unused').card,
    });
    if (notBuilt(sub)) return { skip: 'POST /v1/subscription is not built yet' };
    if (sub.status !== 201) throw new Error(`subscription: ${sub.status} ${sub.text.slice(0, 300)}`);
    ids.push(sub.body.id);
  }
  return { subscriptionIds: ids };
}

function usageRequests(stack, subscriptionIds, batchSize) {
  const prefix = `bench-${crypto.randomBytes(4).toString('hex')}-`;
  let n = 0;
  const event = () => {
    n++;
    return {
      subscriptionId: subscriptionIds[n % subscriptionIds.length],
      meterCode: METER_CODE,
      quantity: 1 + (n % 7),
    };
  };
  const headers = { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' };
  if (batchSize === 1) {
    return [
      {
        method: 'POST',
        path: '/v1/subscription/usage',
        headers,
        setupRequest(request) {
          request.body = JSON.stringify(event());
          request.headers = { ...headers, 'idempotency-key': `${prefix}${n}` };
          return request;
        },
      },
    ];
  }
  return [
    {
      method: 'POST',
      path: '/v1/subscription/usage/batch',
      headers,
      setupRequest(request) {
        const events = Array.from({ length: batchSize }, () => ({ ...event(), idempotencyKey: `${prefix}${n}` }));
        request.body = JSON.stringify({ events });
        return request;
      },
    },
  ];
}

function usageScenario(id, name, batchSize, target, connections) {
  return {
    id,
    name,
    stack: true,
    eventsPerRequest: batchSize,
    connections,
    target,
    async setup(ctx) {
      const fixture = await ctx.memo('usage-fixture', () => usageFixture(ctx.stack));
      if (fixture.skip) return { skip: fixture.skip };
      return {
        request: { url: ctx.stack.gatewayUrl, requests: usageRequests(ctx.stack, fixture.subscriptionIds, batchSize) },
      };
    },
  };
}

module.exports = [
  usageScenario('usage-single', 'usage event, single route (max rate)', 1, {
    minEventsPerSec: 1500,
    label: '>= 1,500 events/s',
  }),
  // Fewer connections: each request is 1,000 events, so 100 of them in flight would only queue.
  usageScenario(
    'usage-batch',
    `usage events, batch route (${BATCH_SIZE.toLocaleString('en-US')} per request)`,
    BATCH_SIZE,
    { minEventsPerSec: 10000, label: '>= 10,000 events/s' },
    8,
  ),
];
