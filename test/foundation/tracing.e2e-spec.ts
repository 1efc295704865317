import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { call, sandboxKey } from '../faults/drain-helpers';
import { waitUntil } from '../support/wait';
import { cardData, paymentBody } from '../payments/payments-fixtures';
import { AppProcess, ensureBuild, ProcessSuite } from '../support/processes';

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
 * the one before; a renewal batch is a trace of its own; a malformed incoming traceparent is ignored.
 */
describe('distributed traces (OTLP export from the real processes)', () => {
  let sink: Awaited<ReturnType<typeof startOtlpSink>>;
  let suite: ProcessSuite;
  let gateway: AppProcess;
  let payments: AppProcess;
  let merchant: { merchantCode: string; key: string };

  beforeAll(async () => {
    ensureBuild();
    sink = await startOtlpSink({ keep: true });
    suite = await ProcessSuite.start({
      apps: ['gateway', 'payments', 'payment-links', 'billing'],
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
        // The SDK's batch processor sends every 100 ms instead of every 5 s.
        OTEL_BSP_SCHEDULE_DELAY: '100',
        RENEWAL_POLL_MS: '300',
        RENEWAL_BATCH: '2',
      },
    });
    gateway = await suite.startApp('gateway');
    payments = await suite.startApp('payments', { env: { LOG_LEVEL: 'debug' } });
    await suite.startApp('billing');
    merchant = await sandboxKey(gateway);
  }, 300_000);
  afterAll(async () => {
    await suite?.stop();
    await sink?.close();
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
  const purchase = (headers: Record<string, string> = {}) =>
    fetch(`${gateway.url}/v1/payment/purchase`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${merchant.key}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
        ...headers,
      },
      body: JSON.stringify(paymentBody(merchant.merchantCode)),
    });

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
    // The gateway's new durable consumer first reads what earlier test files left in the run's EVENTS stream.
    await waitUntil(
      'the event consumed by the gateway',
      async () => inTrace().some((s) => s.app === 'gateway' && s.kind === CONSUMER),
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
    const consumed = inTrace().find((s) => s.app === 'gateway' && s.kind === CONSUMER)!;
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

  it('a renewal batch is a trace of its own, its charges inside it', async () => {
    const api = (method: string, path: string, body?: unknown) =>
      call(gateway.url, method, path, {
        key: merchant.key,
        body,
        headers: method === 'POST' ? { 'idempotency-key': randomUUID() } : {},
      });
    const plan = await api('POST', '/v1/subscription/plan', {
      name: 'Pro',
      interval: 'month',
      amount: 2500,
      currency: 'USD',
    });
    expect(plan.status).toBe(201);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const s = await api('POST', '/v1/subscription', {
        planId: plan.body.id,
        customerEmail: `jane${i}@example.com`,
        card: cardData(),
      });
      expect(s.status).toBe(201);
      ids.push(s.body.id);
    }
    // Due an hour ago in real time, as the renewal loop sees them (bench/renewals.js seeds the same way).
    const db = new Client({ connectionString: suite.databaseUrl('billing') });
    await db.connect();
    try {
      await db.query(
        `UPDATE subscriptions SET billing_anchor = now() - interval '1 month 1 hour',
           current_period_start = now() - interval '1 month 1 hour', current_period_end = now() - interval '1 hour',
           next_billing_date = now() - interval '1 hour'
         WHERE id = ANY($1)`,
        [ids],
      );
    } finally {
      await db.end();
    }

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
});
