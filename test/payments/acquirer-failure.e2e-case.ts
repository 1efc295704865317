import { randomUUID } from 'node:crypto';
import { TestStack } from '../support/stack';
import { expectError, PaymentsClient, paymentsQuery, sandboxMerchant, usd } from './payments-fixtures';
import { ADAPTER_ERROR, SwitchableAcquirer } from './switchable-acquirer';

type Operation = 'capture' | 'refund' | 'cancel' | 'cancel_or_refund';

/**
 * Capture, refund, cancel and cancel_or_refund when the acquirer refuses the operation, when its adapter
 * throws and when it does not answer. A refusal is an Operation result `failed` (a 200, stored and replayed
 * under its Idempotency-Key) that changes nothing but publishes the operation's failure event
 * (`payment.capture_failed`, …); the other two are 503 / 504 in the error envelope and write
 * nothing. Either way the operation can be tried again.
 */
describe('payment operations when the acquirer fails', () => {
  const ACQUIRER_TIMEOUT_MS = 500;
  const acquirer = new SwitchableAcquirer();
  let stack: TestStack;
  let m: PaymentsClient;

  beforeAll(async () => {
    stack = await TestStack.start({
      connectors: [acquirer],
      env: { ACQUIRER_TIMEOUT_MS: String(ACQUIRER_TIMEOUT_MS) },
    });
    m = await sandboxMerchant(stack);
  });
  afterEach(() => {
    acquirer.modifications = 'sandbox';
    acquirer.authorizations = 'sandbox';
    acquirer.answerHung();
  });
  afterAll(() => stack.stop());

  const authorized = async (value = 1000) => (await m.authorize({ amount: usd(value) })).body;
  const captured = async (value = 1000) => (await m.purchase({ amount: usd(value) })).body;

  /** Everything an operation writes about a payment: its row, its operation rows and its events. */
  const written = async (paymentId: string) => ({
    payment: await paymentsQuery(stack, 'SELECT * FROM payments WHERE id = $1', [paymentId]),
    operations: await paymentsQuery(
      stack,
      'SELECT kind, amount_value FROM payment_operations WHERE payment_id = $1 ORDER BY created_at, id',
      [paymentId],
    ),
    events: await paymentsQuery<{ id: string; type: string }>(
      stack,
      "SELECT id, type FROM outbox WHERE envelope->'data'->>'id' = $1 ORDER BY created_at, id",
      [paymentId],
    ),
  });
  type Written = Awaited<ReturnType<typeof written>>;
  /** What a refused operation writes: nothing but its failure event (the Payment as it stands). */
  const plusFailure = (w: Written, type: string): Written => ({
    ...w,
    events: [...w.events, { id: expect.any(String) as string, type }],
  });
  const eventTypes = async (paymentId: string) => (await written(paymentId)).events.map((e) => e.type);
  const storedAnswers = (key: string) =>
    paymentsQuery(
      stack,
      `SELECT operation, response_status AS status, response_body AS body
       FROM idempotency_keys WHERE merchant_code = $1 AND idempotency_key = $2`,
      [m.merchantCode, key],
    );
  /** The modifications the acquirer was asked for from now on. */
  const callsFrom =
    (mark = acquirer.calls.length) =>
    () =>
      acquirer.calls.slice(mark);

  describe('the acquirer refuses: Operation result `failed`, nothing changes but a failure event', () => {
    it('capture; the failed answer is replayed under its key, a new key captures once the acquirer works', async () => {
      const p = await authorized(1000);
      const before = await written(p.id);
      acquirer.modifications = 'failed';
      const calls = callsFrom();
      const key = randomUUID();
      const r = await m.capture(p.id, 600, key);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        id: p.id,
        merchantCode: m.merchantCode,
        orderCode: p.orderCode,
        paymentCode: p.paymentCode,
        amount: usd(600),
        status: 'failed',
      });
      expect(calls()).toEqual([expect.objectContaining({ kind: 'capture', paymentId: p.id, amount: usd(600) })]);
      expect((await m.get(p.id)).body).toMatchObject({ status: 'authorized', amountCaptured: usd(0) });
      const failed = await written(p.id);
      expect(failed).toEqual(plusFailure(before, 'payment.capture_failed'));
      expect(before.events.map((e) => e.type)).toEqual(['payment.authorized']);

      // A 200 is stored and replayed (only 2xx answers are kept), also once the acquirer works again: no second call.
      expect(await storedAnswers(key)).toEqual([{ operation: 'capture', status: 200, body: r.body }]);
      acquirer.modifications = 'sandbox';
      expect(await m.capture(p.id, 600, key)).toMatchObject({ status: 200, body: r.body });
      expect(calls()).toHaveLength(1);
      expect(await written(p.id)).toEqual(failed);

      const retry = await m.capture(p.id, 600);
      expect(retry.body).toMatchObject({ id: p.id, amount: usd(600), status: 'captured' });
      expect((await m.get(p.id)).body).toMatchObject({ status: 'captured', amountCaptured: usd(600) });
      const after = await written(p.id);
      expect(after.operations).toEqual([{ kind: 'capture', amount_value: '600' }]);
      expect(after.events.map((e) => e.type)).toEqual([
        'payment.authorized',
        'payment.capture_failed',
        'payment.captured',
      ]);
    });

    it('refund of the rest of a partly refunded payment: still captured, amountRefunded unchanged', async () => {
      const p = await captured(1000);
      expect((await m.refund(p.id, 200)).body.status).toBe('refunded');
      const before = await written(p.id);
      acquirer.modifications = 'failed';
      const calls = callsFrom();
      const r = await m.refund(p.id, 800);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: p.id, amount: usd(800), status: 'failed' });
      expect(calls()).toEqual([expect.objectContaining({ kind: 'refund', paymentId: p.id, amount: usd(800) })]);
      expect((await m.get(p.id)).body).toMatchObject({ status: 'captured', amountRefunded: usd(200) });
      expect(await written(p.id)).toEqual(plusFailure(before, 'payment.refund_failed'));

      acquirer.modifications = 'sandbox';
      expect((await m.refund(p.id, 800)).body.status).toBe('refunded');
      expect((await m.get(p.id)).body).toMatchObject({ status: 'refunded', amountRefunded: usd(1000) });
      expect(await eventTypes(p.id)).toEqual([
        'payment.captured',
        'payment.refunded',
        'payment.refund_failed',
        'payment.refunded',
      ]);
    });

    it('cancel: still authorized', async () => {
      const p = await authorized(700);
      const before = await written(p.id);
      acquirer.modifications = 'failed';
      const calls = callsFrom();
      const r = await m.operate(p.id, 'cancel');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: p.id, amount: usd(700), status: 'failed' });
      expect(calls()).toEqual([expect.objectContaining({ kind: 'cancel', paymentId: p.id, amount: usd(700) })]);
      expect((await m.get(p.id)).body.status).toBe('authorized');
      expect(await written(p.id)).toEqual(plusFailure(before, 'payment.cancel_failed'));

      acquirer.modifications = 'sandbox';
      expect((await m.operate(p.id, 'cancel')).body.status).toBe('cancelled');
      expect(await eventTypes(p.id)).toEqual(['payment.authorized', 'payment.cancel_failed', 'payment.cancelled']);
    });

    it.each([
      ['an authorization: the void', 'authorized', 'cancel', 1000, 'cancelled'],
      ['a partly refunded payment: the refund of the rest', 'captured', 'refund', 700, 'refunded'],
    ] as const)('cancel_or_refund of %s fails', async (_, start, kind, value, status) => {
      const p = start === 'authorized' ? await authorized(1000) : await captured(1000);
      if (start === 'captured') await m.refund(p.id, 300);
      const before = await written(p.id);
      acquirer.modifications = 'failed';
      const calls = callsFrom();
      const r = await m.operate(p.id, 'cancel_or_refund');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: p.id, amount: usd(value), status: 'failed' });
      expect(calls()).toEqual([expect.objectContaining({ kind, paymentId: p.id, amount: usd(value) })]);
      expect((await m.get(p.id)).body.status).toBe(start);
      expect(await written(p.id)).toEqual(plusFailure(before, `payment.${kind}_failed`));

      acquirer.modifications = 'sandbox';
      expect((await m.operate(p.id, 'cancel_or_refund')).body).toMatchObject({ amount: usd(value), status });
      expect((await m.get(p.id)).body.status).toBe(status);
    });
  });

  it.each([
    ['capture', 'authorized', { amount: usd(400) }, 'captured'],
    ['refund', 'captured', { amount: usd(400) }, 'refunded'],
    ['cancel', 'authorized', {}, 'cancelled'],
    ['cancel_or_refund', 'captured', {}, 'refunded'],
  ] as const)(
    '%s with an adapter that throws: 503 SERVICE_UNAVAILABLE, nothing written, the same key then proceeds',
    async (operation: Operation, start, body, status) => {
      const p = start === 'authorized' ? await authorized(1000) : await captured(1000);
      const before = await written(p.id);
      acquirer.modifications = 'throws';
      const calls = callsFrom();
      const key = randomUUID();
      const r = await m.operate(p.id, operation, body, key);
      expectError(r, 503, 'SERVICE_UNAVAILABLE');
      expect(r.body).toEqual({
        error: {
          status: 503,
          code: 'SERVICE_UNAVAILABLE',
          message: expect.stringMatching(/acquirer/i),
          requestId: r.headers.get('x-request-id'),
        },
      });
      expect(JSON.stringify(r.body)).not.toContain('ECONNREFUSED');
      expect(calls()).toHaveLength(1);
      expect(await written(p.id)).toEqual(before);
      expect(await storedAnswers(key)).toEqual([]);
      // Operators see what the adapter said, under the request id.
      const logged = stack
        .log('payments')
        .json()
        .filter((l) => l.requestId === r.body.error.requestId && JSON.stringify(l).includes(ADAPTER_ERROR));
      expect(logged).not.toHaveLength(0);

      acquirer.modifications = 'sandbox';
      const retry = await m.operate(p.id, operation, body, key);
      expect(retry.status).toBe(200);
      expect(retry.body).toMatchObject({ id: p.id, status });
      expect((await written(p.id)).operations).toHaveLength(before.operations.length + 1);
      expect(await storedAnswers(key)).toEqual([{ operation, status: 200, body: retry.body }]);
    },
  );

  it('an acquirer that does not answer: 504 UPSTREAM_TIMEOUT in time, locks freed, a late answer writes nothing', async () => {
    const p = await authorized(1000);
    const before = await written(p.id);
    acquirer.modifications = 'hangs';
    const key = randomUUID();
    const started = Date.now();
    const r = await m.capture(p.id, 1000, key);
    const elapsed = Date.now() - started;
    expectError(r, 504, 'UPSTREAM_TIMEOUT');
    // The payments service gave up on the acquirer, long before the gateway would give up on it (10 s).
    expect(r.body.error.message).toMatch(/acquirer/i);
    expect(elapsed).toBeGreaterThanOrEqual(ACQUIRER_TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(3_000);
    expect(await written(p.id)).toEqual(before);
    expect(await storedAnswers(key)).toEqual([]);

    // While the first call still hangs, the payment row and the key are free: the same key proceeds.
    acquirer.modifications = 'sandbox';
    const retry = await m.capture(p.id, 1000, key);
    expect(retry.body).toMatchObject({ id: p.id, amount: usd(1000), status: 'captured' });
    // The retry carried the first attempt's reference: an acquirer that did capture the first time answers it
    // with that capture instead of capturing again.
    const [hungCall, retryCall] = acquirer.calls.slice(-2);
    expect(retryCall).toMatchObject({ kind: 'capture', paymentId: p.id });
    expect(retryCall.reference).toBe(hungCall.reference);

    // The acquirer answers the first call after all: too late, it was rolled back and answered.
    acquirer.answerHung();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const after = await written(p.id);
    expect(after.operations).toEqual([{ kind: 'capture', amount_value: '1000' }]);
    expect(after.events.map((e) => e.type)).toEqual(['payment.authorized', 'payment.captured']);
    expect((await m.get(p.id)).body).toMatchObject({ status: 'captured', amountCaptured: usd(1000) });
  });

  describe('purchase and authorization', () => {
    /** Every row the order code has: payments, their events, and the key's stored answer. */
    const orderTrace = async (orderCode: string, key: string) => ({
      payments: await paymentsQuery<{ id: string; status: string }>(
        stack,
        'SELECT id, status FROM payments WHERE merchant_code = $1 AND order_code = $2',
        [m.merchantCode, orderCode],
      ),
      events: await paymentsQuery(stack, "SELECT type FROM outbox WHERE envelope->'data'->>'orderCode' = $1", [
        orderCode,
      ]),
      answers: await storedAnswers(key),
    });

    it('an adapter that throws: 503 SERVICE_UNAVAILABLE, nothing written, the same key and order code retry', async () => {
      const orderCode = `order-${randomUUID()}`;
      const key = randomUUID();
      acquirer.authorizations = 'throws';
      const r = await m.purchase({ orderCode }, key);
      expectError(r, 503, 'SERVICE_UNAVAILABLE');
      expect(JSON.stringify(r.body)).not.toContain(ADAPTER_ERROR);
      expect(await orderTrace(orderCode, key)).toEqual({ payments: [], events: [], answers: [] });

      acquirer.authorizations = 'sandbox';
      const retry = await m.purchase({ orderCode }, key);
      expect(retry.status).toBe(200);
      expect(retry.body).toMatchObject({ orderCode, status: 'captured' });
      expect((await orderTrace(orderCode, key)).payments).toEqual([{ id: retry.body.id, status: 'captured' }]);
    });

    it('a nonce payment the acquirer could not take: the nonce is put back, and the same request retries', async () => {
      const session = await stack.http('POST', '/v1/sdk/session', { key: m.key, body: {} });
      const card = { cardNumber: '4111111111111111', expiryMonth: '12', expiryYear: '2035', cvv: '123' };
      const made = await stack.http('POST', '/v1/sdk/nonce', {
        key: session.body.clientToken,
        body: { cardData: card },
      });
      const body = { orderCode: `order-${randomUUID()}`, card: { nonceData: { nonce: made.body.nonce } } };
      const key = randomUUID();
      acquirer.authorizations = 'throws';
      expectError(await m.purchase(body, key), 503, 'SERVICE_UNAVAILABLE');
      acquirer.authorizations = 'sandbox';
      const retry = await m.purchase(body, key);
      expect([retry.status, retry.body.status]).toEqual([200, 'captured']);
      const reuse = { ...body, orderCode: `order-${randomUUID()}` };
      expectError(await m.purchase(reuse, randomUUID()), 404, 'NOT_FOUND', 'card.nonceData.nonce');
    });

    it('an acquirer that does not answer: 504 in time, the order code and key are free again, a late answer writes nothing', async () => {
      const orderCode = `order-${randomUUID()}`;
      const key = randomUUID();
      acquirer.authorizations = 'hangs';
      const started = Date.now();
      const r = await m.authorize({ orderCode }, key);
      expectError(r, 504, 'UPSTREAM_TIMEOUT');
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(await orderTrace(orderCode, key)).toEqual({ payments: [], events: [], answers: [] });

      acquirer.authorizations = 'sandbox';
      const retry = await m.authorize({ orderCode }, key);
      expect(retry.body).toMatchObject({ orderCode, status: 'authorized' });
      // Same request, same reference at the acquirer (it de-duplicates on it); another key is another request.
      const [hungCall, retryCall] = acquirer.authorizationCalls.slice(-2);
      expect(retryCall.reference).toBe(hungCall.reference);
      const other = await m.authorize({ orderCode: `order-${randomUUID()}` }, randomUUID());
      expect(other.status).toBe(200);
      expect(acquirer.authorizationCalls.at(-1)!.reference).not.toBe(retryCall.reference);
      acquirer.answerHung();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const trace = await orderTrace(orderCode, key);
      expect(trace.payments).toEqual([{ id: retry.body.id, status: 'authorized' }]);
      expect(trace.events).toEqual([{ type: 'payment.authorized' }]);
    });
  });
});
