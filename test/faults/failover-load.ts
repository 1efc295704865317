import { randomUUID } from 'node:crypto';
import { cardData, paymentBody } from '../payments/payments-fixtures';
import { queryRows } from '../support/db';
import { sleep } from '../support/wait';
import { call, Outcome } from './drain-helpers';

/** One HTTP attempt as a client saw it. */
export interface Attempt {
  start: number;
  end: number;
  ok: boolean;
  what: string;
}

/** 5xx, a network error, 409 IDEMPOTENCY_IN_PROGRESS or 429: the same request again, same Idempotency-Key. */
const retryable = (o: Outcome): boolean =>
  o.status === undefined ||
  o.status >= 500 ||
  o.status === 429 ||
  (o.status === 409 && o.body?.error?.code === 'IDEMPOTENCY_IN_PROGRESS');

/**
 * A client that retries every request with its Idempotency-Key until it gets a final answer (or `giveUpAt`),
 * as the platform asks clients to; every attempt goes into `attempts`.
 */
export class RetryingClient {
  readonly attempts: Attempt[] = [];

  constructor(
    private readonly baseUrl: () => string,
    private readonly key: string,
  ) {}

  async post(path: string, body: unknown, giveUpAt: number, idempotencyKey = randomUUID()): Promise<Outcome> {
    for (;;) {
      const start = Date.now();
      const o = await call(this.baseUrl(), 'POST', path, {
        key: this.key,
        body,
        headers: { 'idempotency-key': idempotencyKey },
        timeoutMs: 30_000,
      });
      const ok = o.status !== undefined && o.status < 300;
      this.attempts.push({ start, end: Date.now(), ok, what: `${path} ${o.status ?? o.error}` });
      if (!retryable(o) || Date.now() > giveUpAt) return o;
      await sleep(200);
    }
  }

  get(path: string): Promise<Outcome> {
    return call(this.baseUrl(), 'GET', path, { key: this.key });
  }

  /** From `since`: how long until the first answered request that started after it, and the failures meanwhile. */
  outageAfter(since: number): { firstOkAfterMs: number; lastFailureAfterMs: number; failed: number } {
    const after = this.attempts.filter((a) => a.end >= since);
    const firstOk = after.filter((a) => a.ok && a.start >= since).sort((a, b) => a.end - b.end)[0];
    const failures = after.filter((a) => !a.ok);
    const lastFailure = failures.sort((a, b) => b.end - a.end)[0];
    return {
      firstOkAfterMs: firstOk ? firstOk.end - since : Infinity,
      lastFailureAfterMs: lastFailure ? lastFailure.end - since : 0,
      failed: failures.length,
    };
  }
}

/** What a client was told: each acknowledged purchase and refund. */
export interface Ledger {
  orderCodes: string[];
  purchases: Map<string, { id: string; status: string }>;
  refunds: Map<string, { id: string; value: number }>;
  rejected: string[];
}

/**
 * `workers` loops of purchases, every other one refunded in part, each request retried with its key until
 * answered, until `stop()`; what was acknowledged goes into the ledger.
 */
export function paymentLoad(
  client: RetryingClient,
  merchantCode: string,
  workers = 4,
): { ledger: Ledger; stop(): Promise<Ledger> } {
  const ledger: Ledger = { orderCodes: [], purchases: new Map(), refunds: new Map(), rejected: [] };
  let running = true;
  const giveUp = () => Date.now() + 90_000;
  const worker = async (w: number) => {
    for (let i = 0; running; i++) {
      const body = paymentBody(merchantCode, { orderCode: `fo-${w}-${i}-${randomUUID().slice(0, 6)}` });
      ledger.orderCodes.push(body.orderCode as string);
      const p = await client.post('/v1/payment/purchase', body, giveUp());
      if (p.status !== 200) {
        ledger.rejected.push(`purchase ${p.status ?? p.error} ${JSON.stringify(p.body)}`);
        continue;
      }
      ledger.purchases.set(p.body.id, { id: p.body.id, status: p.body.status });
      if (i % 2) continue;
      const refund = { merchantCode, amount: { currency: 'USD', value: 300, exponent: 2 } };
      const r = await client.post(`/v1/payment/${p.body.id}/refund`, refund, giveUp());
      if (r.status !== 200) ledger.rejected.push(`refund ${r.status ?? r.error} ${JSON.stringify(r.body)}`);
      else ledger.refunds.set(p.body.id, { id: p.body.id, value: 300 });
    }
  };
  const loops = Array.from({ length: workers }, (_, w) => worker(w));
  return {
    ledger,
    async stop() {
      running = false;
      await Promise.all(loops);
      return ledger;
    },
  };
}

/**
 * From `since`, a fresh purchase (a new Idempotency-Key and order each try) every 100 ms until one is answered
 * 200: how long until the platform takes new work again, apart from requests in flight at the fault. The one
 * answered goes into the ledger; a try that got no answer is a payment nobody was told about.
 */
export async function firstNewPurchase(client: RetryingClient, merchantCode: string, ledger: Ledger): Promise<number> {
  const since = Date.now();
  for (;;) {
    const body = paymentBody(merchantCode);
    const p = await client.post('/v1/payment/purchase', body, 0);
    if (p.status === 200) {
      ledger.orderCodes.push(body.orderCode as string);
      ledger.purchases.set(p.body.id, { id: p.body.id, status: p.body.status });
      return Date.now() - since;
    }
    await sleep(100);
  }
}

/** How many failed attempts answered what (`<path> <status or error>`). */
export const failures = (client: RetryingClient): Record<string, number> =>
  client.attempts
    .filter((a) => !a.ok)
    .reduce<Record<string, number>>((n, a) => ({ ...n, [a.what]: (n[a.what] ?? 0) + 1 }), {});

/** A plan and `count` monthly subscriptions, made at 2028-01-05 on the merchant's sandbox clock. */
export async function subscriptions(client: RetryingClient, count: number): Promise<string[]> {
  const until = Date.now() + 60_000;
  const clock = await client.post('/v1/sandbox/clock/advance', { to: '2028-01-05T00:00:00Z' }, until);
  if (clock.status !== 200) throw new Error(`clock: ${JSON.stringify(clock)}`);
  const plan = await client.post(
    '/v1/subscription/plan',
    { name: 'Pro', interval: 'month', amount: 2500, currency: 'USD' },
    until,
  );
  if (plan.status !== 201) throw new Error(`plan: ${JSON.stringify(plan)}`);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const s = await client.post(
      '/v1/subscription',
      { planId: plan.body.id, customerEmail: `c${i}@example.com`, card: cardData() },
      until,
    );
    if (s.status !== 201) throw new Error(`subscription: ${JSON.stringify(s)}`);
    ids.push(s.body.id);
  }
  return ids;
}

/**
 * Billing's renewal lease in these tests. A renewal step claimed on the lost server is taken over once its lease
 * runs out (RENEWAL_LEASE_MS, 60 s by default: docs/operations.md#failures-and-what-they-cost); 10 s keeps it
 * above a payments call (PAYMENTS_RPC_TIMEOUT_MS, 9 s) and the test short.
 */
export const LEASE_MS = '10000';

/**
 * How long the gateway holds an Idempotency-Key taken by a sandbox clock advance when the request could not free
 * it (`lease.ms` in apps/gateway/src/gateway.module.ts): an advance that failed while the gateway's database was
 * gone keeps its key, and its retries answer 409 IDEMPOTENCY_IN_PROGRESS, until then.
 */
export const GATEWAY_KEY_LEASE_MS = 90_000;

/**
 * The renewals: the clock moved a month on, retried with the same target until it answers 200 or `giveUpMs`
 * have passed. A 409 `INVALID_STATE` says an earlier advance of this clock (one whose answer was lost) still
 * runs: the clock did not move, and the route asks for a retry, which is a new request (a new key).
 */
export async function renew(client: RetryingClient, giveUpMs = 90_000): Promise<Outcome> {
  const giveUpAt = Date.now() + giveUpMs;
  for (;;) {
    const o = await client.post('/v1/sandbox/clock/advance', { to: '2028-02-05T01:00:00Z' }, giveUpAt);
    if (o.status !== 409 || o.body?.error?.code !== 'INVALID_STATE' || Date.now() > giveUpAt) return o;
    await sleep(1_000);
  }
}

/** Problems with the payments the ledger acknowledged, read from the payments database. */
export async function paymentProblems(paymentsDb: string, merchantCode: string, ledger: Ledger): Promise<string[]> {
  const rows = await queryRows<{ id: string; order_code: string; status: string; refunded: number }>(
    paymentsDb,
    `SELECT id, order_code, status, amount_refunded::int AS refunded FROM payments WHERE merchant_code = $1`,
    [merchantCode],
  );
  const problems: string[] = [];
  const byOrder = new Map<string, number>();
  for (const r of rows) byOrder.set(r.order_code, (byOrder.get(r.order_code) ?? 0) + 1);
  for (const [order, n] of byOrder) if (n > 1) problems.push(`order ${order} charged ${n} times`);
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const p of ledger.purchases.values()) {
    const row = byId.get(p.id);
    if (!row) problems.push(`acknowledged payment ${p.id} missing`);
    else if (row.status !== p.status) {
      problems.push(`payment ${p.id} acknowledged ${p.status}, stored ${row.status}`);
    }
  }
  for (const r of ledger.refunds.values()) {
    if (byId.get(r.id)?.refunded !== r.value)
      problems.push(`refund of ${r.id} acknowledged, stored ${byId.get(r.id)?.refunded}`);
  }
  const refundOps = await queryRows<{ payment_id: string; n: number }>(
    paymentsDb,
    `SELECT payment_id, count(*)::int AS n FROM payment_operations WHERE kind = 'refund' GROUP BY payment_id HAVING count(*) > 1`,
  );
  for (const r of refundOps) problems.push(`payment ${r.payment_id} refunded ${r.n} times`);
  return problems;
}

/**
 * Renewal problems: each subscription has exactly two paid invoices (its first cycle and the renewal), and the
 * merchant was charged once per paid invoice.
 */
export async function renewalProblems(
  billingDb: string,
  paymentsDb: string,
  merchantCode: string,
  ids: string[],
): Promise<string[]> {
  const invoices = await queryRows<{ subscription_id: string; id: string; status: string }>(
    billingDb,
    `SELECT subscription_id, id, status FROM invoices WHERE subscription_id = ANY($1) ORDER BY period_start`,
    [ids],
  );
  const problems: string[] = [];
  for (const id of ids) {
    const mine = invoices.filter((i) => i.subscription_id === id).map((i) => i.status);
    if (mine.length !== 2 || mine.some((s) => s !== 'paid')) problems.push(`subscription ${id}: ${mine}`);
  }
  const charges = await queryRows<{ order_code: string; n: number }>(
    paymentsDb,
    `SELECT order_code, count(*)::int AS n FROM payments WHERE merchant_code = $1 GROUP BY order_code`,
    [merchantCode],
  );
  for (const c of charges) if (c.n > 1) problems.push(`order ${c.order_code} charged ${c.n} times`);
  const paid = invoices.filter((i) => i.status === 'paid').length;
  if (charges.length !== paid) problems.push(`${paid} invoices paid, ${charges.length} charges`);
  return problems;
}

/** Outbox rows not yet published, per database. */
export async function unpublished(dbs: string[]): Promise<number> {
  let n = 0;
  for (const db of dbs) {
    n += (await queryRows<{ n: number }>(db, 'SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL'))[0].n;
  }
  return n;
}

/** Events written to an outbox (so committed with their change) that the webhooks service never received. */
export async function lostEvents(outboxDbs: string[], webhooksDb: string): Promise<string[]> {
  const received = new Set(
    (await queryRows<{ id: string }>(webhooksDb, 'SELECT id FROM webhook_events')).map((r) => r.id),
  );
  const lost: string[] = [];
  for (const db of outboxDbs) {
    const rows = await queryRows<{ id: string; type: string }>(db, 'SELECT id, type FROM outbox');
    for (const r of rows) if (!received.has(r.id)) lost.push(`${r.type} ${r.id}`);
  }
  return lost;
}

/** Events of one type in the outbox of `db` that name each of `ids` (payments' `data.id`). */
export async function eventsFor(db: string, type: string, ids: string[]): Promise<string[]> {
  const rows = await queryRows<{ pid: string }>(
    db,
    `SELECT envelope::jsonb -> 'data' ->> 'id' AS pid FROM outbox WHERE type = $1 AND envelope::jsonb -> 'data' ->> 'id' = ANY($2)`,
    [type, ids],
  );
  const seen = new Set(rows.map((r) => r.pid));
  return ids.filter((id) => !seen.has(id));
}
