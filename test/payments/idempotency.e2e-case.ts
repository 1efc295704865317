import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { canonicalJson, IdempotencySweepLoop } from '@app/idempotency';
import { TestStack } from '../support/stack';
import {
  cardData,
  expectError,
  paymentBody,
  PaymentsClient,
  paymentsQuery,
  sandboxMerchant,
  uid,
  usd,
} from './payments-fixtures';

/** The deployment's IDEMPOTENCY_FINGERPRINT_KEY in this file's stack. */
const SECRET = randomBytes(32).toString('base64');

/** Idempotency-Key on the payment money operations (docs/api.md, Idempotency-Key). */
describe('idempotency', () => {
  let stack: TestStack;
  let m: PaymentsClient;
  let production: PaymentsClient;

  beforeAll(async () => {
    [stack, m] = await TestStack.startWith(sandboxMerchant, { env: { IDEMPOTENCY_FINGERPRINT_KEY: SECRET } });
    production = new PaymentsClient(
      stack,
      (await stack.key([m.merchantCode], 'private', 'production')).key,
      m.merchantCode,
    );
    await stack.productionSimulator(m.merchantCode);
  });
  afterAll(() => stack.stop());

  const body = (o: Record<string, unknown> = {}) => ({ orderCode: `o-${uid()}`, ...o });
  const countByOrder = async (orderCode: string) =>
    (await paymentsQuery(stack, 'SELECT id FROM payments WHERE order_code = $1', [orderCode])).length;

  it('a replay answers the original response and creates nothing more', async () => {
    const key = randomUUID();
    const b = body({ metadata: { n: '1' } });
    const first = await m.purchase(b, key);
    const again = await m.purchase(b, key);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await countByOrder(b.orderCode)).toBe(1);
    const events = await paymentsQuery(stack, "SELECT id FROM outbox WHERE envelope->'data'->>'id' = $1", [
      first.body.id,
    ]);
    expect(events).toHaveLength(1);
  });

  it('stores a fingerprint of a purchase with card data that cannot be recomputed without the secret', async () => {
    const key = randomUUID();
    const sent = paymentBody(m.merchantCode, { card: cardData('4111111111111111', { cvv: '737' }) });
    const first = await m.purchase(sent, key);
    expect(first.status).toBe(200);
    const [row] = await paymentsQuery(
      stack,
      'SELECT request_hash, response_body FROM idempotency_keys WHERE merchant_code = $1 AND idempotency_key = $2',
      [m.merchantCode, key],
    );
    // Whoever holds the request but the secret (all of it but the digits and CVV they try) cannot reach it.
    const plain = createHash('sha256').update(canonicalJson(sent)).digest('hex');
    expect(row.request_hash).not.toContain(plain);
    expect(row.request_hash).toBe(`v3:${createHmac('sha256', SECRET).update(canonicalJson(sent)).digest('hex')}`);
    // The answer kept for a replay shows no more of the card than the answer did: first six and last four.
    expect(row.response_body).toEqual(first.body);
    expect(first.body.card.cardData.cardNumber).toBe('411111****1111');
    expect(JSON.stringify(row)).not.toMatch(/4111111111111111|"737"|cvv|Jane Doe/i);
    expect((await m.purchase(sent, key)).body).toEqual(first.body);
  });

  it('a declined payment is a 200 answer: stored and replayed', async () => {
    const key = randomUUID();
    const b = body({ card: cardData('4000000000009235') });
    const first = await m.purchase(b, key);
    expect(first.body.status).toBe('declined');
    expect((await m.purchase(b, key)).body).toEqual(first.body);
  });

  it('422 IDEMPOTENCY_KEY_REUSED for another body or another operation', async () => {
    const key = randomUUID();
    const b = body();
    await m.purchase(b, key);
    expectError(await m.purchase({ ...b, amount: usd(999) }, key), 422, 'IDEMPOTENCY_KEY_REUSED', 'Idempotency-Key');
    expectError(await m.authorize(b, key), 422, 'IDEMPOTENCY_KEY_REUSED');
    const p = (await m.authorize(body())).body;
    expectError(await m.capture(p.id, 100, key), 422, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('a 4xx is not stored: a corrected retry with the same key proceeds', async () => {
    const key = randomUUID();
    const b = body();
    expectError(await m.purchase({ ...b, card: cardData('4111111111111112') }, key), 400, 'VALIDATION_FAILED');
    expect((await m.purchase(b, key)).body.status).toBe('captured');
  });

  it('capture, refund and cancel replay their Operation result without acting twice', async () => {
    const p = (await m.authorize(body())).body;
    const captureKey = randomUUID();
    const capture = await m.capture(p.id, 800, captureKey);
    expect((await m.capture(p.id, 800, captureKey)).body).toEqual(capture.body);
    const refundKey = randomUUID();
    const refund = await m.refund(p.id, 100, refundKey);
    expect((await m.refund(p.id, 100, refundKey)).body).toEqual(refund.body);
    expect((await m.get(p.id)).body.amountRefunded).toEqual(usd(100));
    const other = (await m.authorize(body())).body;
    expectError(await m.capture(other.id, 800, captureKey), 422, 'IDEMPOTENCY_KEY_REUSED');
    const cancelKey = randomUUID();
    const cancel = await m.operate(other.id, 'cancel', {}, cancelKey);
    expect((await m.operate(other.id, 'cancel', {}, cancelKey)).body).toEqual(cancel.body);
    const corKey = randomUUID();
    const cor = await m.operate(p.id, 'cancel_or_refund', {}, corKey);
    expect((await m.operate(p.id, 'cancel_or_refund', {}, corKey)).body).toEqual(cor.body);
  });

  it('a retry with the same metadata in another key order replays; another value is 422', async () => {
    const key = randomUUID();
    const b = body({ metadata: { cart: 'c-1', channel: 'web', tier: 'gold' } });
    const first = await m.purchase(b, key);
    const again = await m.purchase(
      { metadata: { tier: 'gold', channel: 'web', cart: 'c-1' }, orderCode: b.orderCode },
      key,
    );
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body).toEqual(first.body);
    expect(await countByOrder(b.orderCode)).toBe(1);
    expectError(
      await m.purchase({ ...b, metadata: { cart: 'c-2', channel: 'web', tier: 'gold' } }, key),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    );
  });

  it('409 IDEMPOTENCY_IN_PROGRESS with Retry-After: 1 while the key is in progress', async () => {
    const key = randomUUID();
    const b = body();
    // The key's row as a reservation leaves it: no answer yet (the request hash does not matter for 409).
    await paymentsQuery(
      stack,
      `INSERT INTO idempotency_keys (merchant_code, environment, idempotency_key, operation, request_hash)
       VALUES ($1, 'sandbox', $2, 'purchase', $3)`,
      [m.merchantCode, key, createHash('sha256').update('x').digest('hex')],
    );
    const r = await m.purchase(b, key);
    expectError(r, 409, 'IDEMPOTENCY_IN_PROGRESS');
    expect(r.headers.get('retry-after')).toBe('1');
    await paymentsQuery(stack, 'DELETE FROM idempotency_keys WHERE idempotency_key = $1', [key]);
    expect((await m.purchase(b, key)).status).toBe(200);
  });

  it('concurrent requests with one key make one payment; the others replay it or answer 409', async () => {
    const key = randomUUID();
    const b = body();
    const answers = await Promise.all(Array.from({ length: 8 }, () => m.purchase(b, key)));
    const ok = answers.filter((a) => a.status === 200);
    const busy = answers.filter((a) => a.status === 409);
    expect(ok.length + busy.length).toBe(8);
    expect(new Set(ok.map((a) => a.body.id)).size).toBe(1);
    busy.forEach((a) => expect(a.body.error.code).toBe('IDEMPOTENCY_IN_PROGRESS'));
    expect(await countByOrder(b.orderCode)).toBe(1);
  });

  it('keys belong to a merchant and environment', async () => {
    const key = randomUUID();
    const other = await sandboxMerchant(stack);
    const a = await m.purchase(body(), key);
    const b = await other.purchase(body(), key);
    const c = await production.purchase(body(), key);
    expect(new Set([a.body.id, b.body.id, c.body.id]).size).toBe(3);
  });

  it('400 VALIDATION_FAILED for a malformed key', async () => {
    expectError(await m.purchase(body(), 'x'.repeat(256)), 400, 'VALIDATION_FAILED', 'Idempotency-Key');
    expectError(await m.purchase(body(), ''), 400, 'VALIDATION_FAILED', 'Idempotency-Key');
    expect((await m.purchase(body(), 'x'.repeat(255))).status).toBe(200);
  });

  describe('production requires a key on every money operation', () => {
    it('purchase and authorization: 400 IDEMPOTENCY_KEY_REQUIRED', async () => {
      expectError(await production.purchase(body(), null), 400, 'IDEMPOTENCY_KEY_REQUIRED', 'Idempotency-Key');
      expectError(await production.authorize(body(), null), 400, 'IDEMPOTENCY_KEY_REQUIRED');
    });

    it.each(['capture', 'refund', 'cancel', 'cancel_or_refund'] as const)('%s', async (op) => {
      const p = (await production.purchase(body())).body;
      expectError(await production.operate(p.id, op, { amount: usd(100) }, null), 400, 'IDEMPOTENCY_KEY_REQUIRED');
    });

    it('sandbox does not', async () => {
      expect((await m.purchase(body(), null)).status).toBe(200);
    });
  });

  it('keeps keys 24 hours; the sweep deletes older ones', async () => {
    const key = randomUUID();
    const first = await m.purchase(body(), key);
    const sweeper = stack.services.get('payments')![0].get(IdempotencySweepLoop);
    expect(await sweeper.runOnce()).toBe(0);
    expect((await m.purchase(body(), key)).status).toBe(422);
    await paymentsQuery(
      stack,
      "UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE idempotency_key = $1",
      [key],
    );
    expect(await sweeper.runOnce()).toBeGreaterThanOrEqual(1);
    const fresh = await m.purchase(body(), key);
    expect(fresh.status).toBe(200);
    expect(fresh.body.id).not.toBe(first.body.id);
  });
});
