'use strict';

/**
 * `webhook-backlog-published`: the 10,000-event backlog of `webhook-backlog`, made by publishing the events to
 * the EVENTS stream as the payments service's outbox relay does (one `payment.captured` envelope each, for the
 * bench merchant), instead of by 10,000 purchases. It measures the same drain; building the backlog takes
 * seconds instead of minutes, which matters on a shared host where purchases crawl.
 */

const crypto = require('node:crypto');
const { connect } = require('nats');

/** Envelopes published at once (each awaited for its JetStream ack). */
const PUBLISH_WINDOW = 500;

function envelope(merchantCode, environment, n) {
  const id = crypto.randomUUID();
  return {
    id,
    type: 'payment.captured',
    createdAt: new Date().toISOString(),
    environment,
    merchantCode,
    data: { id: crypto.randomUUID(), paymentCode: `BENCH-${n}`, orderCode: `backlog-${n}`, status: 'captured' },
  };
}

/** Publishes `count` envelopes to the EVENTS stream (subject = type) with their id as the message id. */
async function publishEvents(natsUrl, merchantCode, environment, count) {
  const nc = await connect({ servers: natsUrl });
  try {
    const js = nc.jetstream();
    for (let i = 0; i < count; i += PUBLISH_WINDOW) {
      const window = Array.from({ length: Math.min(PUBLISH_WINDOW, count - i) }, (_, j) => {
        const e = envelope(merchantCode, environment, i + j);
        return js.publish(e.type, Buffer.from(JSON.stringify(e)), { msgID: e.id });
      });
      await Promise.all(window);
    }
  } finally {
    await nc.close();
  }
}

/** The scenario, built from webhook-scenarios.js's helpers (that file lists it). */
function publishedBacklog({
  BACKLOG,
  BACKLOG_RETRY_SCHEDULE,
  webhookSetup,
  receiverCall,
  waitFor,
  api,
  result,
  connectionsNote,
}) {
  return {
    id: 'webhook-backlog-published',
    name: `webhook backlog of ${BACKLOG.toLocaleString('en-US')} published events after a dead endpoint recovers (deliveries/s)`,
    stack: true,
    async setup(ctx) {
      if (ctx.options.secureNats)
        throw new Error('webhook-backlog-published publishes on plain NATS: run it without --secure-nats');
      const hooks = await webhookSetup(ctx, { WEBHOOK_RETRY_SCHEDULE: BACKLOG_RETRY_SCHEDULE });
      const { stack } = ctx;
      const { receiver } = hooks;
      // The environment the bench key's events are in: the probe purchase's event says it.
      const [probe] = await api(stack, 'GET', '/v1/events?limit=1');
      return {
        ...hooks,
        describe: `the receiver answers 503 while ${BACKLOG} events are published to EVENTS, then 200 (WEBHOOK_RETRY_SCHEDULE 2 s × 300)`,
        async measure({ onMeasureStart }) {
          await receiverCall(receiver, 'POST', '/control/reset');
          await receiverCall(receiver, 'POST', '/control/status', { status: 503 });
          const outageAt = Date.now();
          await publishEvents(stack.natsUrl, stack.merchantCode, probe.environment, BACKLOG);
          const publishedSec = (Date.now() - outageAt) / 1000;
          // Every event has had its first try refused: the whole backlog waits on the endpoint.
          await waitFor(receiver, (s) => s.events >= BACKLOG, 'first tries during the outage', 300_000);
          onMeasureStart();
          const recovered = await receiverCall(receiver, 'POST', '/control/status', { status: 200 });
          const stats = await waitFor(receiver, (s) => s.accepted >= BACKLOG, 'the drain', 300_000);
          const drainSec = (stats.lastAcceptedAt - recovered.recoveredAt) / 1000;
          return result({
            delivered: stats.accepted,
            missing: BACKLOG - stats.accepted,
            failedPurchases: 0,
            fromMs: recovered.recoveredAt,
            toMs: stats.lastAcceptedAt,
            lagMs: { p50: null, p97_5: null, p99: null },
            note:
              `drained ${stats.accepted} events in ${drainSec.toFixed(1)} s after the endpoint recovered; published in ` +
              `${publishedSec.toFixed(1)} s, outage ${((recovered.recoveredAt - outageAt) / 1000).toFixed(1)} s with ` +
              `${recovered.refused} tries refused; ${connectionsNote(stats)}`,
          });
        },
      };
    },
  };
}

module.exports = { publishedBacklog };
