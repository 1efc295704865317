import { createHash, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { uuidv7 } from '@app/clock';
import type { CallerContext } from '@app/contracts';
import { IdempotencyService, IdempotencySweepLoop } from '@app/idempotency';
import { TestStack } from '../support/stack';
import {
  billingMerchant,
  billingStack,
  BillingClient,
  billingQuery,
  cardData,
  CARDS,
  expectError,
  paymentsDb,
} from './billing-fixtures';
import { holdTable } from '../support/db';

/** Idempotency-Key on every subscription POST, without a transaction held over the payments call. */
describe('billing idempotency', () => {
  let stack: TestStack;
  let m: BillingClient;
  let plan: Record<string, any>;
  let dear: Record<string, any>;

  beforeAll(async () => {
    [stack, m] = await billingStack();
    plan = await m.plan({ amount: 1000 });
    dear = await m.plan({ amount: 9000 });
  });
  afterAll(() => stack.stop());

  const count = async (sql: string, params: unknown[]) => Number((await billingQuery(stack, sql, params))[0].n);

  it('a replayed creation answers the first answer and creates nothing more', async () => {
    const key = randomUUID();
    const first = await m.subscribe({ planId: plan.id, customerEmail: 'idem@example.com' }, key);
    const again = await m.subscribe({ planId: plan.id, customerEmail: 'idem@example.com' }, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await count(`SELECT count(*) AS n FROM subscriptions WHERE customer_email = 'idem@example.com'`, [])).toBe(
      1,
    );
    const payments = await paymentsDb(stack, 'SELECT id FROM payments WHERE order_code = $1', [
      `sub_${first.body.id}_1`,
    ]);
    expect(payments).toHaveLength(1);
    const other = await m.subscribe({ planId: plan.id, customerEmail: 'other@example.com' }, key);
    expectError(other, 422, 'IDEMPOTENCY_KEY_REUSED');
    expectError(
      await m.post(`/v1/subscription/${first.body.id}/cancel`, { merchantCode: m.merchantCode }, key),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    );
    expectError(await m.subscribe({ planId: plan.id }, 'x'.repeat(256)), 400, 'VALIDATION_FAILED', 'Idempotency-Key');
  });

  it('a retry with the same metadata in another key order replays; another value is 422', async () => {
    const key = randomUUID();
    const metadata = { cart: 'c-1', channel: 'web', tier: 'gold' };
    const first = await m.subscribe({ planId: plan.id, customerEmail: 'meta@example.com', metadata }, key);
    const reordered = { tier: 'gold', channel: 'web', cart: 'c-1' };
    const again = await m.subscribe({ metadata: reordered, customerEmail: 'meta@example.com', planId: plan.id }, key);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    const other = await m.subscribe(
      { planId: plan.id, customerEmail: 'meta@example.com', metadata: { ...metadata, tier: 'x' } },
      key,
    );
    expectError(other, 422, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('keys a replica of the previous release writes (its own table) reach the shared one: replayed, kept', async () => {
    const service = stack.services.get('billing')![0].get(IdempotencyService);
    const ctx = (key: string) =>
      ({ merchantCode: m.merchantCode, environment: 'sandbox', requestId: 'r', idempotencyKey: key }) as CallerContext;
    const body = { planId: 7, metadata: { cart: 'c-1', channel: 'web' } };
    const op = 'subscription.create';
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    // Billing's first fingerprint: the operation and the body as sent, unversioned.
    const oldHash = sha(`${op}\n${JSON.stringify(body)}`);
    const insert = (key: string, response: unknown, resourceId: string) =>
      billingQuery(
        stack,
        `INSERT INTO billing_idempotency
           (merchant_code, environment, key, operation, request_hash, resource_id, response)
         VALUES ($1, 'sandbox', $2, $3, $4, $5, $6)`,
        [m.merchantCode, key, op, oldHash, resourceId, response === null ? null : JSON.stringify(response)],
      );
    const answered = randomUUID();
    await insert(answered, { id: 'before-upgrade' }, uuidv7());
    const work = jest.fn(() => Promise.resolve({ id: 'new' }));
    expect(await service.leased(ctx(answered), op, { ...body }, work)).toEqual({ id: 'before-upgrade' });
    await expect(service.leased(ctx(answered), op, { ...body, planId: 8 }, work)).rejects.toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    expect(work).not.toHaveBeenCalled();
    // Released by a failed attempt on the old replica: the retry keeps the resource id and the payments keys.
    const released = randomUUID();
    const resourceId = uuidv7();
    await insert(released, null, resourceId);
    const db = stack.services.get('billing')![0].get(DataSource);
    const seen = await service.leased(ctx(released), op, body, async (run) => {
      await db.transaction((manager) => run.answer(manager, { id: 'after-upgrade' }));
      return [run.resourceId, run.callKey('cit')];
    });
    const derived = sha(`sandbox\n${m.merchantCode}\n${released}\nv1-as-sent:${oldHash}`).slice(0, 40);
    expect(seen).toEqual([resourceId, `billing_${derived}_cit`]);
    expect(await service.leased(ctx(released), op, body, work)).toEqual({ id: 'after-upgrade' });
  });

  it('cancel twice with one key is 200 twice with the same answer; with a new key it is 409', async () => {
    const s = await m.subscription({ planId: plan.id });
    const key = randomUUID();
    const cancel = (k: string) => m.post(`/v1/subscription/${s.id}/cancel`, { merchantCode: m.merchantCode }, k);
    const a = await cancel(key);
    const b = await cancel(key);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body).toEqual(a.body);
    expectError(await cancel(randomUUID()), 409, 'INVALID_STATE');
    expect(
      await count(
        `SELECT count(*) AS n FROM outbox WHERE type = 'subscription.cancelled' AND envelope::jsonb -> 'data' ->> 'id' = $1`,
        [s.id],
      ),
    ).toBe(1);
  });

  it('a key in progress answers 409 IDEMPOTENCY_IN_PROGRESS (Retry-After: 1), then its first answer', async () => {
    const key = randomUUID();
    const body = { planId: plan.id, customerEmail: 'slow@example.com' };
    // Hold the subscriptions table so the first request waits after its payments call, key reserved.
    const blocker = await holdTable(stack.env.BILLING_DATABASE_URL, 'subscriptions');
    const first = m.subscribe(body, key);
    try {
      // The second request is sent only once the first one's reservation is committed: sent earlier, it could
      // reserve the key itself and wait on the table lock with the first.
      const reserved = `SELECT count(*) AS n FROM idempotency_keys WHERE idempotency_key = $1 AND reserved_until IS NOT NULL`;
      for (let i = 0; i < 400 && (await count(reserved, [key])) === 0; i++) {
        await new Promise((r) => setTimeout(r, 25));
      }
      const second = await m.subscribe(body, key);
      expectError(second, 409, 'IDEMPOTENCY_IN_PROGRESS');
      expect(second.headers.get('retry-after')).toBe('1');
    } finally {
      await blocker.release();
    }
    const done = await first;
    expect(done.status).toBe(201);
    const replay = await m.subscribe(body, key);
    expect(replay.body.id).toBe(done.body.id);
  });

  it('an error releases the key: the same key with a corrected body proceeds', async () => {
    const key = randomUUID();
    const declined = await m.subscribe({ planId: plan.id, card: cardData(CARDS.declined) }, key);
    expectError(declined, 402, 'PAYMENT_DECLINED');
    const again = await m.subscribe({ planId: plan.id, card: cardData(CARDS.declined) }, key);
    expectError(again, 402, 'PAYMENT_DECLINED');
    expect(again.body.error.paymentId).toBe(declined.body.error.paymentId);
    const corrected = await m.subscribe({ planId: plan.id }, key);
    expect(corrected.status).toBe(201);
    expectError(await m.subscribe({ planId: 424242 }, randomUUID()), 404, 'NOT_FOUND');
    expect(await count(`SELECT count(*) AS n FROM idempotency_keys WHERE reserved_until IS NOT NULL`, [])).toBe(0);
  });

  it('change-plan and payment-method replays charge once', async () => {
    const s = await m.subscription({ planId: plan.id });
    const key = randomUUID();
    const body = { merchantCode: m.merchantCode, planId: dear.id, applyAt: 'now' };
    const a = await m.post(`/v1/subscription/${s.id}/change-plan`, body, key);
    const b = await m.post(`/v1/subscription/${s.id}/change-plan`, body, key);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body).toEqual(a.body);
    expect((await m.get(`/v1/subscription/${s.id}/invoice`)).body).toHaveLength(2);
    const pm = { merchantCode: m.merchantCode, card: cardData('5500005555555559') };
    const key2 = randomUUID();
    const c = await m.post(`/v1/subscription/${s.id}/payment-method`, pm, key2);
    const d = await m.post(`/v1/subscription/${s.id}/payment-method`, pm, key2);
    expect(d.body).toEqual(c.body);
    const verifications = await paymentsDb(
      stack,
      `SELECT count(*)::int AS n FROM payments WHERE order_code LIKE $1 AND amount_value = 0`,
      [`sub_${s.id}_%`],
    );
    expect(verifications[0].n).toBe(1);
    const pause = randomUUID();
    const p1 = await m.post(`/v1/subscription/${s.id}/pause`, {}, pause);
    const p2 = await m.post(`/v1/subscription/${s.id}/pause`, {}, pause);
    expect([p1.status, p2.status, p2.body.status]).toEqual([200, 200, 'paused']);
  });

  it('payments down: change-plan and payment-method answer 503, change nothing and free the key', async () => {
    const s = await m.subscription({ planId: plan.id });
    const key = randomUUID();
    const body = { merchantCode: m.merchantCode, planId: dear.id, applyAt: 'now' };
    await stack.stopService('payments');
    try {
      expectError(await m.post(`/v1/subscription/${s.id}/change-plan`, body, key), 503, 'SERVICE_UNAVAILABLE');
      const pm = { merchantCode: m.merchantCode, card: cardData() };
      expectError(await m.post(`/v1/subscription/${s.id}/payment-method`, pm), 503, 'SERVICE_UNAVAILABLE');
      const after = (await m.get(`/v1/subscription/${s.id}?merchantCode=${m.merchantCode}`)).body;
      expect(after).toMatchObject({ planId: plan.id, updatedAt: s.updatedAt });
    } finally {
      await stack.startService('payments');
    }
    const retried = await m.post(`/v1/subscription/${s.id}/change-plan`, body, key);
    expect(retried.body).toMatchObject({ planId: dear.id });
  });

  it('keys are deleted after 24 hours, never while reserved', async () => {
    const insert = (key: string, age: string, reserved: string | null) =>
      billingQuery(
        stack,
        `INSERT INTO idempotency_keys (merchant_code, environment, idempotency_key, operation, request_hash,
           resource_id, reserved_until, created_at)
         VALUES ($1, 'sandbox', $2, 'subscription.create', repeat('0', 64), $3, $4, now() - $5::interval)`,
        [m.merchantCode, key, uuidv7(), reserved, age],
      );
    await insert('old', '25 hours', null);
    await insert('old-reserved', '25 hours', new Date(Date.now() + 60_000).toISOString());
    await insert('young', '23 hours', null);
    const sweeper = stack.services.get('billing')![0].get(IdempotencySweepLoop);
    expect(await sweeper.runOnce()).toBeGreaterThanOrEqual(1);
    const left = await billingQuery(
      stack,
      `SELECT idempotency_key AS key FROM idempotency_keys
       WHERE merchant_code = $1 AND idempotency_key IN ($2, $3, $4) ORDER BY 1`,
      [m.merchantCode, 'old', 'old-reserved', 'young'],
    );
    expect(left.map((r) => r.key)).toEqual(['old-reserved', 'young']);
  });

  it('production: a subscription works without an Idempotency-Key (billing derives the payments keys)', async () => {
    const prod = await billingMerchant(stack, 'production');
    await stack.productionSimulator(prod.merchantCode);
    const prodPlan = await prod.plan();
    const r = await prod.subscribe({ planId: prodPlan.id }, null);
    expect(r.status).toBe(201);
    expect(r.body.firstInvoice.status).toBe('paid');
  });
});
