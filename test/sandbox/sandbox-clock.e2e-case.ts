import {
  cardData,
  expectError,
  PaymentsClient,
  paymentsQuery,
  sandboxMerchant,
  usd,
} from '../payments/payments-fixtures';
import { HttpResult, TestStack } from '../support/stack';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const CHALLENGE = '4000002500003155';

/** How far from `expected` a clock reading taken around a request may be. */
const SLACK_MS = 5_000;
const near = (iso: string, expected: number): void => {
  expect(Math.abs(Date.parse(iso) - expected)).toBeLessThan(SLACK_MS);
};

/** The sandbox clock through the gateway, over real NATS and Postgres, with real time as the base clock. */
describe('sandbox clock', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['payments', 'payment-links', 'billing'],
      // SANDBOX_MAX_ADVANCE unset: its default, one year.
      env: { AUTH_HOLD_DAYS: '7', HOLD_EXPIRY_SWEEP_MS: '0', SANDBOX_MAX_ADVANCE: '' },
    });
  });
  afterAll(() => stack.stop());

  const clockOf = (m: PaymentsClient): Promise<HttpResult> => stack.http('GET', '/v1/sandbox/clock', { key: m.key });
  const advance = (m: PaymentsClient, body: Record<string, unknown>): Promise<HttpResult> =>
    stack.http('POST', '/v1/sandbox/clock/advance', { key: m.key, body });
  const nowOf = async (m: PaymentsClient): Promise<number> => Date.parse((await clockOf(m)).body.now);
  const events = (paymentId: string) =>
    paymentsQuery<{ type: string; createdAt: string }>(
      stack,
      `SELECT type, envelope->>'createdAt' AS "createdAt" FROM outbox
       WHERE envelope->'data'->>'id' = $1 ORDER BY created_at, id`,
      [paymentId],
    );

  it('reads real time until it is advanced', async () => {
    const m = await sandboxMerchant(stack);
    const r = await clockOf(m);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ now: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
    near(r.body.now, Date.now());
  });

  it('advances by an ISO 8601 duration and to an RFC 3339 time, and keeps running from there', async () => {
    const m = await sandboxMerchant(stack);
    const by = await advance(m, { by: 'P3D' });
    expect(by.status).toBe(200);
    near(by.body.now, Date.now() + 3 * DAY);
    near((await clockOf(m)).body.now, Date.now() + 3 * DAY);

    const to = new Date(Date.now() + 10 * DAY + 1234).toISOString();
    const r = await advance(m, { to });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ now: to });
    const later = await nowOf(m);
    expect(later).toBeGreaterThanOrEqual(Date.parse(to));
    expect(later - Date.parse(to)).toBeLessThan(SLACK_MS);

    // A time with an offset is read as the instant it names; standing still is allowed.
    const again = new Date(later + HOUR);
    const withZone = await advance(m, { to: again.toISOString().replace('Z', '+00:00') });
    expect(withZone.body.now).toBe(again.toISOString());
    expect((await advance(m, { by: 'PT0S' })).status).toBe(200);
  });

  it('wants exactly one of to and by, well formed: 400 VALIDATION_FAILED', async () => {
    const m = await sandboxMerchant(stack);
    expectError(await advance(m, {}), 400, 'VALIDATION_FAILED');
    expectError(
      await advance(m, { to: new Date(Date.now() + DAY).toISOString(), by: 'P1D' }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(await advance(m, { by: 'three days' }), 400, 'VALIDATION_FAILED', 'by');
    expectError(await advance(m, { by: 'P' }), 400, 'VALIDATION_FAILED', 'by');
    expectError(await advance(m, { to: '2030-02-30T00:00:00Z' }), 400, 'VALIDATION_FAILED', 'to');
    expectError(await advance(m, { to: '2030-01-01T00:00:00' }), 400, 'VALIDATION_FAILED', 'to');
    expectError(await advance(m, { to: 1893456000000 }), 400, 'VALIDATION_FAILED', 'to');
    const malformed = await stack.http('POST', '/v1/sandbox/clock/advance', {
      key: m.key,
      rawBody: '{"by":',
    });
    expectError(malformed, 400, 'VALIDATION_FAILED');
    near((await clockOf(m)).body.now, Date.now());
  });

  it('never goes backwards: 422 CLOCK_BACKWARDS, and the clock stays where it was', async () => {
    const m = await sandboxMerchant(stack);
    await advance(m, { by: 'P2D' });
    const r = await advance(m, { to: new Date(Date.now() + DAY).toISOString() });
    expectError(r, 422, 'CLOCK_BACKWARDS', 'to');
    expect(r.body.error.requestId).toEqual(expect.any(String));
    expectError(await advance(m, { by: '-PT1M' }), 422, 'CLOCK_BACKWARDS', 'by');
    near((await clockOf(m)).body.now, Date.now() + 2 * DAY);
  });

  it('moves at most a year in one call: 422 CLOCK_ADVANCE_TOO_FAR beyond, the clock stays; steps go on', async () => {
    const m = await sandboxMerchant(stack);
    const tooFar = await advance(m, { by: 'P1Y1D' });
    expectError(tooFar, 422, 'CLOCK_ADVANCE_TOO_FAR', 'by');
    expect(tooFar.body.error.message).toContain('P1Y');
    expectError(
      await advance(m, { to: new Date(Date.now() + 400 * DAY).toISOString() }),
      422,
      'CLOCK_ADVANCE_TOO_FAR',
      'to',
    );
    near((await clockOf(m)).body.now, Date.now());
    const yearAhead = (from: number) => {
      const d = new Date(from);
      d.setUTCFullYear(d.getUTCFullYear() + 1);
      return d.getTime();
    };
    expect((await advance(m, { by: 'P1Y' })).status).toBe(200);
    expect((await advance(m, { by: 'P1Y' })).status).toBe(200);
    near((await clockOf(m)).body.now, yearAhead(yearAhead(Date.now())));
  });

  it('takes sandbox keys only: a production key is 403 AUTH_INSUFFICIENT_SCOPE', async () => {
    const code = await stack.merchant();
    const { key } = await stack.key([code], 'private', 'production');
    expectError(await stack.http('GET', '/v1/sandbox/clock', { key }), 403, 'AUTH_INSUFFICIENT_SCOPE');
    const r = await stack.http('POST', '/v1/sandbox/clock/advance', { key, body: { by: 'P1D' } });
    expectError(r, 403, 'AUTH_INSUFFICIENT_SCOPE');
    expectError(await stack.http('GET', '/v1/sandbox/clock'), 401, 'AUTH_MISSING');
  });

  it('is one clock per merchant: advancing A leaves B on real time', async () => {
    const a = await sandboxMerchant(stack);
    const b = await sandboxMerchant(stack);
    await advance(a, { by: 'P1M' });
    expect(await nowOf(a)).toBeGreaterThan(Date.now() + 27 * DAY);
    near((await clockOf(b)).body.now, Date.now());
    near((await b.purchase()).body.createdAt, Date.now());
  });

  it('a multi-merchant key names the merchant whose clock it means', async () => {
    const a = await stack.merchant();
    const b = await stack.merchant();
    const { key } = await stack.key([a, b]);
    const get = (merchantCode?: string) =>
      stack.http('GET', `/v1/sandbox/clock${merchantCode ? `?merchantCode=${merchantCode}` : ''}`, { key });
    expectError(await get(), 400, 'MERCHANT_CODE_REQUIRED');
    const r = await stack.http('POST', '/v1/sandbox/clock/advance', { key, body: { merchantCode: b, by: 'P5D' } });
    expect(r.status).toBe(200);
    near((await get(b)).body.now, Date.now() + 5 * DAY);
    near((await get(a)).body.now, Date.now());
  });

  it('stamps sandbox objects with the advanced clock', async () => {
    const m = await sandboxMerchant(stack);
    const { body } = await advance(m, { by: 'P20D' });
    const p = await m.purchase();
    expect(p.status).toBe(200);
    expect(p.body.status).toBe('captured');
    near(p.body.createdAt, Date.parse(body.now));
    const [event] = await events(p.body.id);
    near(event.createdAt, Date.parse(body.now));
  });

  it('voids an authorization held past AUTH_HOLD_DAYS before the advance answers, as of the hold’s end', async () => {
    const m = await sandboxMerchant(stack);
    const held = (await m.authorize({ amount: usd(1500) })).body;
    const verification = (await m.authorize({ amount: usd(0) })).body;
    await advance(m, { by: 'P3D' });
    const younger = (await m.authorize({ amount: usd(700) })).body;
    expect((await m.get(held.id)).body.status).toBe('authorized');

    const holdEnd = Date.parse(held.createdAt) + 7 * DAY;
    const r = await advance(m, { to: new Date(holdEnd + HOUR).toISOString() });
    expect(r.status).toBe(200);
    expect((await m.get(held.id)).body.status).toBe('cancelled');
    expect((await m.get(younger.id)).body.status).toBe('authorized');
    expect((await m.get(verification.id)).body.status).toBe('authorized');
    expectError(await m.capture(held.id, 100), 409, 'AUTHORIZATION_EXPIRED');
    const cancelled = (await events(held.id)).filter((e) => e.type === 'payment.cancelled');
    expect(cancelled).toHaveLength(1);
    // Stamped when the hold ended on the merchant's clock, not when the advance ran.
    expect(Date.parse(cancelled[0].createdAt)).toBe(holdEnd);
    expect((await m.capture(younger.id, 700)).body.status).toBe('captured');
  });

  it('expires a pending 3DS session advanced past 15 minutes: resume is 400 SESSION_EXPIRED', async () => {
    const m = await sandboxMerchant(stack);
    const p = (await m.purchase({ card: cardData(CHALLENGE) })).body;
    expect(p.status).toBe('pending_3ds');
    const { sessionId, expiresAt } = p.actionRequired;
    expect((await advance(m, { by: 'PT16M' })).status).toBe(200);
    const [row] = await paymentsQuery<{ status: string }>(stack, 'SELECT status FROM payment_sessions WHERE id = $1', [
      sessionId,
    ]);
    expect(row.status).toBe('expired');
    expect((await m.get(p.id)).body.status).toBe('cancelled');
    const abandoned = (await events(p.id)).find((e) => e.type === 'payment.cancelled');
    expect(abandoned?.createdAt).toBe(expiresAt);
    expectError(await stack.http('POST', '/v1/payment/resume', { body: { sessionId } }), 400, 'SESSION_EXPIRED');
    // The order code is free again for the shopper's retry.
    expect((await m.purchase({ orderCode: p.orderCode })).body.status).toBe('captured');
  });

  it('runs both kinds of due work in one advance, each stamped with the time it fell due', async () => {
    const m = await sandboxMerchant(stack);
    const hold = (await m.authorize()).body;
    const challenged = (await m.authorize({ card: cardData(CHALLENGE) })).body;
    expect((await advance(m, { by: 'P8D' })).status).toBe(200);
    expect((await m.get(hold.id)).body.status).toBe('cancelled');
    expect((await m.get(challenged.id)).body.status).toBe('cancelled');
    const at = async (id: string) => (await events(id)).find((e) => e.type === 'payment.cancelled')?.createdAt;
    expect(await at(challenged.id)).toBe(challenged.actionRequired.expiresAt);
    expect(await at(hold.id)).toBe(new Date(Date.parse(hold.createdAt) + 7 * DAY).toISOString());
  });

  it('the keyless 3DS paths read the merchant’s clock: a resume after an advance holds from the advanced time', async () => {
    const m = await sandboxMerchant(stack);
    const { body } = await advance(m, { by: 'P10D' });
    const p = (await m.authorize({ card: cardData(CHALLENGE) })).body;
    near(p.actionRequired.expiresAt, Date.parse(body.now) + 15 * MINUTE);
    const { sessionId } = p.actionRequired;
    // The hosted challenge page's button: keyless, so the session's merchant decides the clock.
    const done = await stack.http('POST', `/v1/3ds/challenge/${sessionId}`, { body: { outcome: 'authenticated' } });
    expect(done.status).toBe(200);
    const resumed = await stack.http('POST', '/v1/payment/resume', { body: { sessionId } });
    expect(resumed.body.status).toBe('authorized');
    const [row] = await paymentsQuery<{ hold_expires_at: Date }>(
      stack,
      'SELECT hold_expires_at FROM payments WHERE id = $1',
      [p.id],
    );
    near(row.hold_expires_at.toISOString(), Date.parse(body.now) + 7 * DAY);
    expect((await m.capture(p.id, 1000)).body.status).toBe('captured');
  });

  it('leaves production alone: its payments keep real time and their holds', async () => {
    const m = await sandboxMerchant(stack);
    const { key } = await stack.key([m.merchantCode], 'private', 'production');
    await stack.productionSimulator(m.merchantCode);
    const production = new PaymentsClient(stack, key, m.merchantCode);
    const live = (await production.authorize()).body;
    expect(live.status).toBe('authorized');
    expect((await advance(m, { by: 'P30D' })).status).toBe(200);
    expect((await production.get(live.id)).body.status).toBe('authorized');
    near((await production.purchase()).body.createdAt, Date.now());
    expect((await production.capture(live.id, 1000)).body.status).toBe('captured');
  });

  it('serializes concurrent advances of one merchant: both apply, one after the other', async () => {
    const m = await sandboxMerchant(stack);
    const [x, y] = await Promise.all([advance(m, { by: 'P1D' }), advance(m, { by: 'P1D' })]);
    expect([x.status, y.status]).toEqual([200, 200]);
    expect(Math.abs(Date.parse(x.body.now) - Date.parse(y.body.now))).toBeGreaterThan(DAY - SLACK_MS);
    near((await clockOf(m)).body.now, Date.now() + 2 * DAY);
  });

  describe('with a second gateway replica', () => {
    let first: string;
    let second: string;

    beforeAll(async () => {
      first = stack.url;
      await stack.startGateway();
      second = stack.url;
    });

    const on = async <T>(url: string, call: () => Promise<T>): Promise<T> => {
      const previous = stack.url;
      stack.url = url;
      try {
        return await call();
      } finally {
        stack.url = previous;
      }
    };

    it('sees an advance made on the other one at once, in reads and in the objects it stamps', async () => {
      const m = await sandboxMerchant(stack);
      // Both replicas have the merchant's (real-time) offset cached before the advance.
      near((await on(second, () => m.purchase())).body.createdAt, Date.now());
      near((await on(first, () => m.purchase())).body.createdAt, Date.now());
      const { body } = await on(first, () => advance(m, { by: 'P2D' }));
      // A purchase first: the clock read below goes to the database and would refresh the cache anyway.
      near((await on(second, () => m.purchase())).body.createdAt, Date.parse(body.now));
      near((await on(second, () => clockOf(m))).body.now, Date.parse(body.now));
    });
  });

  // Last: it stops the payments service.
  it('does not move when a service cannot run its due work: 503, and the clock reads as before', async () => {
    const m = await sandboxMerchant(stack);
    await advance(m, { by: 'P1D' });
    await stack.stopService('payments');
    expectError(await advance(m, { by: 'P7D' }), 503, 'SERVICE_UNAVAILABLE');
    near((await clockOf(m)).body.now, Date.now() + DAY);
  });
});
