import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { call, sandboxKey } from '../faults/drain-helpers';
import { usd } from '../support/amounts';
import { waitUntil } from '../support/wait';
import { cardData, paymentBody } from '../payments/payments-fixtures';
import { AppName, AppProcess, ensureBuild, ProcessSuite } from '../support/processes';
import { selfSignedCert, WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(180_000);

/** A span as the OTLP sink keeps it (bench/lib/otlp-sink.js). */
interface SinkSpan {
  app: string;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  status: number;
  attributes: Record<string, unknown>;
  links: Array<{ traceId: string; spanId: string }>;
}
const { startOtlpSink } = require('../../bench/lib/otlp-sink') as {
  startOtlpSink(o: { keep: boolean }): Promise<{ url: string; spans: SinkSpan[]; close(): Promise<void> }>;
};

const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

/**
 * The four apps as real processes, exporting their traces over OTLP/HTTP to a collector stand-in that keeps
 * the spans in memory: a purchase is one trace across gateway, NATS and payments, with each hop the child of
 * the one before; a renewal batch is a trace of its own, linked to the requests that created its
 * subscriptions; an event published by the relay's claim is in the trace of the request that committed it; a
 * webhook delivery try links to the trace of its event; the crash-recovery sweep's run links to the trace of
 * the request that reserved the acquirer attempt it resolves, and the link-use reconcile's run to the checkout
 * request of each lapsed use; the expiry sweeps' runs (authorization holds, 3DS sessions, payment links) link to
 * the trace of the request that created what they end; a malformed incoming traceparent is ignored.
 */
describe('distributed traces (OTLP export from the real processes)', () => {
  let sink: Awaited<ReturnType<typeof startOtlpSink>>;
  let suite: ProcessSuite;
  let gateway: AppProcess;
  let payments: AppProcess;
  let merchant: { merchantCode: string; key: string };
  let receiver: WebhookReceiver;
  const certDir = mkdtempSync(join(tmpdir(), 'tracing-ca-'));

  beforeAll(async () => {
    ensureBuild();
    sink = await startOtlpSink({ keep: true });
    receiver = await WebhookReceiver.start();
    writeFileSync(join(certDir, 'ca.pem'), selfSignedCert().cert);
    suite = await ProcessSuite.start({
      apps: ['gateway', 'payments', 'payment-links', 'billing', 'webhooks'],
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
        // The SDK's batch processor sends every 100 ms instead of every 5 s.
        OTEL_BSP_SCHEDULE_DELAY: '100',
        RENEWAL_POLL_MS: '300',
        RENEWAL_BATCH: '2',
      },
    });
    // The webhooks service delivers to the receiver on this host, trusting its self-signed certificate.
    await suite.startApp('webhooks', {
      env: {
        NODE_EXTRA_CA_CERTS: join(certDir, 'ca.pem'),
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_DISPATCH_POLL_MS: '100',
      },
    });
    gateway = await suite.startApp('gateway');
    payments = await suite.startApp('payments', {
      env: {
        LOG_LEVEL: 'debug',
        RECOVERY_SWEEP_MS: '300',
        HOLD_EXPIRY_SWEEP_MS: '300',
        THREEDS_EXPIRY_SWEEP_MS: '300',
      },
    });
    await suite.startApp('billing');
    await suite.startApp('payment-links', { env: { LINK_EXPIRY_SWEEP_MS: '300' } });
    merchant = await sandboxKey(gateway);
  }, 300_000);
  afterAll(async () => {
    await suite?.stop();
    await sink?.close();
    await receiver?.close();
    rmSync(certDir, { recursive: true, force: true });
  });

  const byId = (id: string | undefined) => sink.spans.find((s) => s.spanId === id);
  const parentOf = (s: SinkSpan) => byId(s.parentSpanId);
  /** The span's ancestors, nearest first. */
  const ancestors = (s: SinkSpan): SinkSpan[] => {
    const out: SinkSpan[] = [];
    for (let p = parentOf(s); p; p = parentOf(p)) out.push(p);
    return out;
  };
  async function spanOfRequest(requestId: string): Promise<SinkSpan> {
    let found: SinkSpan | undefined;
    await waitUntil(`the gateway's span of request ${requestId}`, async () => {
      const line = gateway.logLines().find((l) => l.requestId === requestId && l.msg === 'request');
      found = line && sink.spans.find((s) => s.spanId === line.spanId);
      return found !== undefined;
    });
    return found!;
  }
  const api = (method: string, path: string, body?: unknown) =>
    call(gateway.url, method, path, {
      key: merchant.key,
      body,
      headers: method === 'POST' ? { 'idempotency-key': randomUUID() } : {},
    });
  const monthlyPlan = async (): Promise<number> => {
    const plan = await api('POST', '/v1/subscription/plan', {
      name: 'Pro',
      interval: 'month',
      amount: 2500,
      currency: 'USD',
    });
    expect(plan.status).toBe(201);
    return Number(plan.body.id);
  };
  /** Creates a subscription; answers its id and the gateway's span of the request that created it. */
  async function subscribe(planId: number, email: string): Promise<{ id: string; request: SinkSpan }> {
    const res = await fetch(`${gateway.url}/v1/subscription`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${merchant.key}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify({ planId, customerEmail: email, card: cardData() }),
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: string };
    return { id: body.id, request: await spanOfRequest(res.headers.get('x-request-id')!) };
  }
  /** The span is `request`'s, or one inside it (the service's handler of the request's command). */
  const within = (request: SinkSpan) => (spanId: string) => {
    const span = byId(spanId);
    return span !== undefined && (span === request || ancestors(span).includes(request));
  };
  /**
   * Waits for a run of `loop` in `app`, a trace of its own, whose span links to `request`'s span or to one of its
   * descendants (where the service stored the context).
   */
  async function expectLinkedRun(app: string, loop: string, request: SinkSpan): Promise<void> {
    const runs = () =>
      sink.spans.filter(
        (s) => s.app === app && s.name === `loop ${loop}` && s.links.some((l) => within(request)(l.spanId)),
      );
    await waitUntil(`a ${loop} run linked to the request`, async () => runs().length > 0, 60_000);
    for (const run of runs()) {
      expect(run.parentSpanId).toBeUndefined();
      expect(run.traceId).not.toBe(request.traceId);
    }
  }
  const purchase = (headers: Record<string, string> = {}, route = 'purchase', body: Record<string, unknown> = {}) =>
    fetch(`${gateway.url}/v1/payment/${route}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${merchant.key}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
        ...headers,
      },
      body: JSON.stringify(paymentBody(merchant.merchantCode, body)),
    });
  /** Runs `work` with a client of `app`'s database. */
  async function withDb<T>(app: AppName, work: (db: Client) => Promise<T>): Promise<T> {
    const db = new Client({ connectionString: suite.databaseUrl(app) });
    await db.connect();
    try {
      return await work(db);
    } finally {
      await db.end();
    }
  }
  /**
   * What an expiry sweep ends, created by a real request (`created`, answered `status`): checks that its row kept
   * the trace of that request, moves its expiry (`table`.`column`, the row found by `key`, its id unless said) an
   * hour into the past, and waits for a run of `loop` linked to that request and for `ends` (the row's own table
   * unless said) to show `ended` by that id.
   */
  async function expectSweepLinked(
    created: Response,
    o: {
      app: AppName;
      loop: string;
      status: string;
      table: string;
      column: string;
      key?: string;
      ends?: string;
      ended: string;
    },
  ): Promise<void> {
    expect(created.status).toBeLessThan(300);
    const row = (await created.json()) as { id: string; status: string };
    expect(row.status).toBe(o.status);
    const request = await spanOfRequest(created.headers.get('x-request-id')!);
    const where = `${o.key ?? 'id'} = $1`;
    await withDb(o.app, async (db) => {
      const stored = await db.query(`SELECT trace_parent FROM ${o.table} WHERE ${where}`, [row.id]);
      expect(stored.rows).toEqual([{ trace_parent: expect.stringMatching(`^00-${request.traceId}-[0-9a-f]{16}-01$`) }]);
      const [, , spanId] = String(stored.rows[0].trace_parent).split('-');
      await waitUntil('the span the row names, exported', async () => within(request)(spanId));
      await db.query(`UPDATE ${o.table} SET ${o.column} = now() - interval '1 hour' WHERE ${where}`, [row.id]);
      await expectLinkedRun(o.app, o.loop, request);
      const statusOf = async () =>
        (await db.query(`SELECT status FROM ${o.ends ?? o.table} WHERE id = $1`, [row.id])).rows[0]?.status;
      await waitUntil(`${o.loop} ended it`, async () => (await statusOf()) === o.ended);
    });
  }

  it('a purchase is one trace: gateway request → NATS command → payments handler → acquirer, transactions, event', async () => {
    const res = await purchase();
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id')!;
    const http = await spanOfRequest(requestId);
    expect(http).toMatchObject({ app: 'gateway', name: 'POST /v1/payment/purchase', kind: SERVER });
    // The readiness polls that waited for the gateway to start made no trace.
    expect(sink.spans.filter((s) => s.name.includes('/health/'))).toEqual([]);
    expect(http.parentSpanId).toBeUndefined();
    const inTrace = () => sink.spans.filter((s) => s.traceId === http.traceId);
    // The webhooks service's new durable consumer first reads what earlier test files left in the run's EVENTS stream.
    // Each app exports on its own schedule: the payments spans may reach the collector after the gateway's.
    await waitUntil(
      'the event consumed by the webhooks service, and the payments spans exported',
      async () =>
        inTrace().some((s) => s.app === 'webhooks' && s.kind === CONSUMER) &&
        ['cmd.payments.purchase', 'acquirer purchase', 'payment.captured publish'].every((name) =>
          inTrace().some((s) => s.app === 'payments' && s.name === name),
        ),
      90_000,
    );

    const command = inTrace().find((s) => s.app === 'gateway' && s.name === 'cmd.payments.purchase')!;
    expect(command).toMatchObject({ kind: CLIENT, parentSpanId: http.spanId });
    const handler = inTrace().find((s) => s.app === 'payments' && s.name === 'cmd.payments.purchase')!;
    expect(handler).toMatchObject({ kind: SERVER, parentSpanId: command.spanId });

    const acquirer = inTrace().find((s) => s.name === 'acquirer purchase')!;
    expect(acquirer).toMatchObject({ app: 'payments', kind: CLIENT });
    expect(ancestors(acquirer)).toContain(handler);
    const transactions = inTrace().filter((s) => s.name === 'db transaction' && s.app === 'payments');
    expect(transactions.length).toBeGreaterThanOrEqual(2); // reserve, record
    for (const t of transactions) expect(ancestors(t)).toContain(handler);
    // The pg driver's spans: the statements of a transaction are its children.
    const statements = inTrace().filter(
      (s) => s.app === 'payments' && s.attributes['db.system.name'] === 'postgresql' && s.name !== 'db transaction',
    );
    expect(statements.some((s) => transactions.includes(parentOf(s)!))).toBe(true);

    const publish = inTrace().find((s) => s.name === 'payment.captured publish')!;
    expect(publish).toMatchObject({ app: 'payments', kind: PRODUCER });
    expect(ancestors(publish)).toContain(handler);
    const consumed = inTrace().find((s) => s.app === 'webhooks' && s.kind === CONSUMER)!;
    expect(consumed).toMatchObject({ name: 'payment.captured process', parentSpanId: publish.spanId });
  }, 150_000);

  it("a request's log lines name its trace and span beside its requestId, in the gateway and the service", async () => {
    const res = await call(gateway.url, 'GET', `/v1/ping?merchantCode=${merchant.merchantCode}&service=payments`, {
      key: merchant.key,
    });
    expect(res.status).toBe(200);
    const requestId = String(res.body.requestId);
    const http = await spanOfRequest(requestId);
    const access = gateway.logLines().find((l) => l.requestId === requestId && l.msg === 'request');
    expect(access).toMatchObject({ traceId: http.traceId, spanId: http.spanId });
    // payments logs each ping at debug level, inside the command's span.
    let line: Record<string, unknown> | undefined;
    await waitUntil('the ping logged by payments', async () => {
      line = payments.logLines().find((l) => l.requestId === requestId && l.msg === 'ping');
      return line !== undefined && sink.spans.some((s) => s.spanId === line!.spanId);
    });
    const handler = byId(String(line!.spanId))!;
    expect(handler).toMatchObject({ app: 'payments', name: 'cmd.payments.ping', traceId: http.traceId });
    expect(line).toMatchObject({ traceId: http.traceId });
  });

  it("a caller's traceparent makes the request a child of the caller's span; a malformed one is ignored", async () => {
    const traceId = randomUUID().replace(/-/g, '');
    const callerSpan = randomUUID().replace(/-/g, '').slice(0, 16);
    const joined = await purchase({ traceparent: `00-${traceId}-${callerSpan}-01` });
    expect(joined.status).toBe(200);
    const child = await spanOfRequest(joined.headers.get('x-request-id')!);
    expect(child).toMatchObject({ traceId, parentSpanId: callerSpan });

    for (const malformed of ['00-zz-not-a-trace-01', `00-${'0'.repeat(32)}-${callerSpan}-01`, 'garbage']) {
      const res = await purchase({ traceparent: malformed });
      expect(res.status).toBe(200);
      const span = await spanOfRequest(res.headers.get('x-request-id')!);
      expect(span.parentSpanId).toBeUndefined();
      expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(span.traceId).not.toBe(traceId);
    }
  });

  it("an event the relay takes over is published by the relay's claim in the request's trace", async () => {
    // Every transaction publishes its events directly after its commit; the relay's claim takes over a row whose
    // process stopped before marking it published. That row is made here: the new subscription's event, once
    // published, is put back as unpublished with its lease run out, as a process that died before the mark leaves
    // it. The relay's claim publishes it again (same message id: JetStream drops the copy, so no consumer sees it
    // twice), in a run of the relay that is a trace of its own and links to the context stored on the row.
    const { id, request } = await subscribe(await monthlyPlan(), 'claimed@example.com');
    await withDb('billing', async (db) => {
      const published = async () =>
        (
          await db.query(
            `SELECT id FROM outbox WHERE type = 'subscription.created' AND envelope->'data'->>'id' = $1
               AND published_at IS NOT NULL`,
            [id],
          )
        ).rows as Array<{ id: string }>;
      await waitUntil('the subscription.created event published directly', async () => (await published()).length > 0);
      const [row] = await published();
      await db.query(
        "UPDATE outbox SET published_at = NULL, claimed_until = now() - interval '1 second' WHERE id = $1",
        [row.id],
      );
    });
    const publishes = () =>
      sink.spans.filter(
        (s) => s.app === 'billing' && s.name === 'subscription.created publish' && s.traceId === request.traceId,
      );
    // The relay's run that claimed it (a trace of its own) links to the context stored on the row.
    const runsOf = (publish: SinkSpan) =>
      sink.spans.filter(
        (s) =>
          s.app === 'billing' &&
          s.name === 'loop outbox_relay' &&
          s.links.some((l) => l.traceId === request.traceId && l.spanId === publish.parentSpanId),
      );
    const claimed = () => publishes().find((p) => ancestors(p).includes(request) && runsOf(p).length > 0);
    await waitUntil('the subscription.created publish by the claim, in the request trace', async () => !!claimed());
    const publish = claimed()!;
    expect(publish).toMatchObject({ kind: PRODUCER });
    for (const run of runsOf(publish)) {
      expect(run.parentSpanId).toBeUndefined();
      expect(run.traceId).not.toBe(request.traceId);
    }
  });

  it('a webhook delivery try links to the trace of the purchase whose event it delivers', async () => {
    const path = `/traced-${randomUUID()}`;
    const endpoint = await api('POST', '/v1/webhook-endpoint', {
      url: receiver.url(path),
      events: ['payment.captured'],
    });
    expect(endpoint.status).toBe(201);
    const res = await purchase();
    expect(res.status).toBe(200);
    const payment = (await res.json()) as { id: string };
    const http = await spanOfRequest(res.headers.get('x-request-id')!);
    let eventId: string | undefined;
    await waitUntil(
      'the webhook delivered',
      async () => {
        const post = receiver.received.find((r) => r.path === path && JSON.parse(r.body).data?.id === payment.id);
        eventId = post && String(post.headers['webhook-id']);
        return eventId !== undefined;
      },
      90_000,
    );
    // The try is in the delivery loop's run (a trace of its own), linked to where the event was consumed: its
    // consumer's span (or its publish, had it come in a batch), in the purchase's trace.
    const attemptOf = () =>
      sink.spans.find((s) => s.name === 'webhook delivery' && s.attributes['webhook.event.id'] === eventId);
    await waitUntil('the delivery try traced, linked into the purchase trace', async () => {
      const linked = attemptOf() && byId(attemptOf()!.links[0]?.spanId);
      return linked !== undefined && ancestors(linked).includes(http);
    });
    const attempt = attemptOf()!;
    expect(attempt).toMatchObject({ app: 'webhooks', kind: CLIENT });
    expect(attempt.traceId).not.toBe(http.traceId);
    expect(attempt.links.map((l) => l.traceId)).toEqual([http.traceId]);
  });

  it('a renewal batch is a trace of its own, its charges inside it, linked to the requests that created them', async () => {
    const planId = await monthlyPlan();
    const created: Array<{ id: string; request: SinkSpan }> = [];
    for (let i = 0; i < 3; i++) created.push(await subscribe(planId, `jane${i}@example.com`));
    const ids = created.map((c) => c.id);
    // Due an hour ago in real time, as the renewal loop sees them (bench/renewals.js seeds the same way).
    await withDb('billing', (db) =>
      db.query(
        `UPDATE subscriptions SET billing_anchor = now() - interval '1 month 1 hour',
           current_period_start = now() - interval '1 month 1 hour', current_period_end = now() - interval '1 hour',
           next_billing_date = now() - interval '1 hour'
         WHERE id = ANY($1)`,
        [ids],
      ),
    );

    // RENEWAL_BATCH=2: two claims, each run of the loop a trace of its own with its charges in it.
    const batches = () =>
      sink.spans.filter(
        (s) =>
          s.app === 'billing' &&
          s.name === 'loop renewal' &&
          sink.spans.some(
            (c) => c.traceId === s.traceId && c.app === 'payments' && c.name.startsWith('cmd.payments.purchase'),
          ),
      );
    await waitUntil('two renewal batches traced', async () => batches().length >= 2, 60_000);
    for (const b of batches()) {
      expect(b.parentSpanId).toBeUndefined();
      const charge = sink.spans.find(
        (c) => c.traceId === b.traceId && c.app === 'payments' && c.name.startsWith('cmd.payments.purchase'),
      )!;
      expect(ancestors(charge)).toContain(b);
    }
    expect(new Set(batches().map((b) => b.traceId)).size).toBe(batches().length);
    // Each subscription's renewal links its batch to the trace of the request that created it.
    const linked = new Set(batches().flatMap((b) => b.links.map((l) => l.traceId)));
    expect(linked).toEqual(new Set(created.map((c) => c.request.traceId)));
    // The many runs of the loops that found nothing (the relay polls every 50 ms here) are not exported.
    const loopRuns = sink.spans.filter((s) => s.name.startsWith('loop '));
    const idleRuns = loopRuns.filter((r) =>
      sink.spans
        .filter((c) => c.traceId === r.traceId && c !== r)
        .every((c) => Number(c.attributes['db.response.returned_rows']) === 0),
    );
    expect(loopRuns.length).toBeGreaterThan(0);
    expect(idleRuns.map((r) => r.name)).toEqual([]);
  });

  it("the recovery sweep's run links to the trace of the request that reserved the attempt it resolves", async () => {
    // An attempt left behind as by a purchase whose process died between reserve and record (the crash tests
    // kill a process there: test/payments/crash-recovery.e2e-spec.ts), reserved an hour ago in a real
    // purchase's trace, with a request reference the acquirer never saw: the sweep releases it.
    const res = await purchase();
    expect(res.status).toBe(200);
    const payment = (await res.json()) as { id: string };
    const http = await spanOfRequest(res.headers.get('x-request-id')!);
    const attemptId = randomUUID();
    await withDb('payments', async (db) => {
      const remaining = async () =>
        Number((await db.query('SELECT count(*) AS n FROM acquirer_attempts WHERE id = $1', [attemptId])).rows[0].n);
      await db.query(
        `INSERT INTO acquirer_attempts (id, payment_id, merchant_code, environment, operation, request_reference,
           connection_code, acquirer, idempotency_key, detail, reserved_at, trace_parent)
         SELECT $1, gen_random_uuid(), merchant_code, environment, 'purchase', $2, connection_code, acquirer, NULL,
           $3, now() - interval '1 hour', $4
         FROM payments WHERE id = $5`,
        [
          attemptId,
          `rq_lost_${attemptId}`,
          { kind: 'authorize', connectionName: 'lost', earlier: [] },
          `00-${http.traceId}-${http.spanId}-01`,
          payment.id,
        ],
      );
      await expectLinkedRun('payments', 'acquirer_recovery', http);
      await waitUntil('the attempt resolved', async () => (await remaining()) === 0);
    });
  });

  it("the link-use reconcile's run links to the trace of the request that reserved the lapsed use", async () => {
    // A use left reserved as by a checkout whose service stopped before the purchase (no payment made), in the
    // trace of a real request of the link's merchant, an hour past its time: the reconcile releases it.
    const res = await fetch(`${gateway.url}/v1/payment-link`, {
      method: 'POST',
      headers: { authorization: `Bearer ${merchant.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: usd(990), title: 'Traced' }),
    });
    expect(res.status).toBe(201);
    const link = (await res.json()) as { id: string };
    const http = await spanOfRequest(res.headers.get('x-request-id')!);
    const useId = randomUUID();
    await withDb('payment-links', async (db) => {
      const status = async () =>
        (await db.query('SELECT status FROM payment_link_uses WHERE id = $1', [useId])).rows[0]?.status as string;
      await db.query(
        `INSERT INTO payment_link_uses (id, link_id, status, reserved_until, created_at, updated_at, trace_parent)
         VALUES ($1, $2, 'reserved', now() - interval '1 hour', now() - interval '2 hours', now() - interval '2 hours',
           $3)`,
        [useId, link.id, `00-${http.traceId}-${http.spanId}-01`],
      );
      await expectLinkedRun('payment-links', 'link_use_reconcile', http);
      await waitUntil('the use released', async () => (await status()) === 'released');
    });
  });

  it('the hold-expiry run links to the trace of the request that authorized the payment it voids', async () => {
    await expectSweepLinked(await purchase({}, 'authorization'), {
      app: 'payments',
      loop: 'hold_expiry',
      status: 'authorized',
      table: 'payments',
      column: 'hold_expires_at',
      ended: 'cancelled',
    });
  });

  it('the 3DS expiry run links to the trace of the purchase whose challenge nobody finished', async () => {
    await expectSweepLinked(await purchase({}, 'purchase', { card: cardData('4000002500003155') }), {
      app: 'payments',
      loop: 'threeds_expiry',
      status: 'pending_3ds',
      table: 'payment_sessions',
      column: 'expires_at',
      key: 'payment_id',
      ends: 'payments',
      ended: 'cancelled',
    });
  });

  it('the link-expiry run links to the trace of the request that created the link it expires', async () => {
    const created = await fetch(`${gateway.url}/v1/payment-link`, {
      method: 'POST',
      headers: { authorization: `Bearer ${merchant.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: usd(1250), title: 'Expiring', expiresAt: new Date(Date.now() + 86_400_000) }),
    });
    await expectSweepLinked(created, {
      app: 'payment-links',
      loop: 'link_expiry',
      status: 'active',
      table: 'payment_links',
      column: 'expires_at',
      ended: 'expired',
    });
  });
});
