import { ManualClock } from '@app/clock';
import { ExpirySweepLoop } from '@app/platform';
import { PaymentSession } from '../../apps/payments/src/threeds/payment-session.entity';
import {
  cardData,
  expectError,
  PaymentsClient,
  paymentEventTypes,
  paymentsQuery,
  sandboxMerchant,
  uid,
} from '../payments/payments-fixtures';
import { TestStack } from '../support/stack';

const CHALLENGE = '4000002500003155';
const ALWAYS_FAILS = '4000000000003055';
const FRICTIONLESS = '4000003220000000';
const MINUTE = 60_000;

describe('3-D Secure: challenge, hosted page, sandbox route and resume', () => {
  let stack: TestStack;
  let client: PaymentsClient;
  const clock = new ManualClock();

  beforeAll(
    async () =>
      ([stack, client] = await TestStack.startWith(sandboxMerchant, {
        clock,
        env: { PUBLIC_BASE_URL: 'https://pay.example.test/' },
      })),
  );
  afterAll(() => stack.stop());

  const resume = (sessionId: unknown, headers: Record<string, string> = {}) =>
    stack.http('POST', '/v1/payment/resume', { body: { sessionId }, headers });
  const authenticate = (sessionId: string, outcome = 'authenticated', key = client.key) =>
    stack.http('POST', `/v1/sandbox/3ds/${sessionId}`, { key, body: { outcome } });
  const challenged = async (o: Record<string, unknown> = {}, intent: 'purchase' | 'authorize' = 'purchase') => {
    const r = await client[intent]({ card: cardData(CHALLENGE), ...o });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('pending_3ds');
    return r.body;
  };
  const events = (id: string) => paymentEventTypes(stack, id);

  it('a challenge card answers pending_3ds with a 15-minute session on the hosted page', async () => {
    const p = await challenged();
    const { sessionId } = p.actionRequired;
    expect(p.actionRequired).toEqual({
      type: 'threeds_challenge',
      url: `https://pay.example.test/v1/3ds/challenge/${sessionId}`,
      sessionId,
      expiresAt: new Date(clock.now().getTime() + 15 * MINUTE).toISOString(),
    });
    expect(sessionId).toMatch(/^ses_[A-Za-z0-9]{32}$/);
    expect(p.autorizationCode).toBeUndefined();
    expect(p.card.cardData.cardNumber).toBe('400000****3155');
  });

  it('resume before the challenge is 409 CHALLENGE_NOT_COMPLETED; after it, the final payment; then single use', async () => {
    const p = await challenged();
    expectError(await resume(p.actionRequired.sessionId), 409, 'CHALLENGE_NOT_COMPLETED');
    const done = await authenticate(p.actionRequired.sessionId);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ sessionId: p.actionRequired.sessionId, outcome: 'authenticated' });
    const r = await resume(p.actionRequired.sessionId);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: p.id, status: 'captured', amountCaptured: { value: 1000 } });
    // The challenge's authentication result, as the acquirer answered it (docs/api.md, Payments).
    expect(r.body.threeDSecure).toEqual({ flow: 'challenge', eci: '05', version: '2.2.0' });
    expect(p.threeDSecure).toBeUndefined();
    expect(r.body.autorizationCode).toEqual(expect.any(String));
    expect(r.body.card.networkTransactionId).toEqual(expect.any(String));
    expect(r.body.actionRequired).toBeUndefined();
    expectError(await resume(p.actionRequired.sessionId), 409, 'INVALID_STATE');
    expect((await client.get(p.id)).body.status).toBe('captured');
    expect(await events(p.id)).toEqual(['payment.pending', 'payment.captured']);
  });

  it('an authorization resumes to authorized (a hold), capturable afterwards', async () => {
    const p = await challenged({}, 'authorize');
    await authenticate(p.actionRequired.sessionId);
    const r = await resume(p.actionRequired.sessionId);
    expect(r.body).toMatchObject({ status: 'authorized', amountCaptured: { value: 0 } });
    expect((await client.capture(p.id, 1000)).body.status).toBe('captured');
    expect(await events(p.id)).toEqual(['payment.pending', 'payment.authorized', 'payment.captured']);
  });

  it.each([
    ['a failed challenge', CHALLENGE, 'failed'],
    ['4000000000003055 even when authenticated', ALWAYS_FAILS, 'authenticated'],
  ])('%s resumes to declined Q1', async (_, card, outcome) => {
    const p = await challenged({ card: cardData(card) });
    await authenticate(p.actionRequired.sessionId, outcome);
    const r = await resume(p.actionRequired.sessionId);
    expect(r.body.status).toBe('declined');
    expect(r.body.refusalCode).toMatchObject({ reasonCode: 'Q1', recoveryAction: 'switch_method' });
    expect(await events(p.id)).toEqual(['payment.pending', 'payment.refused']);
  });

  it('the frictionless card approves at once, without a challenge', async () => {
    const r = await client.purchase({ card: cardData(FRICTIONLESS) });
    expect(r.body).toMatchObject({ status: 'captured' });
    expect(r.body.actionRequired).toBeUndefined();
    expect(r.body.threeDSecure).toEqual({ flow: 'frictionless', eci: '05', version: '2.2.0' });
    // Kept on the payment: the inquiry answers it too.
    const again = await stack.http('GET', `/v1/payment/${r.body.id}`, { key: client.key });
    expect(again.body.threeDSecure).toEqual({ flow: 'frictionless', eci: '05', version: '2.2.0' });
  });

  it('resume takes no key, ignores one, and knows only real sessions', async () => {
    expectError(await resume('ses_unknown'), 404, 'NOT_FOUND', 'sessionId');
    expectError(await resume(undefined), 400, 'VALIDATION_FAILED', 'sessionId');
    const p = await challenged();
    await authenticate(p.actionRequired.sessionId);
    const withJunkKey = await resume(p.actionRequired.sessionId, { authorization: 'Bearer junk' });
    expect(withJunkKey.body.status).toBe('captured');
  });

  it('the sandbox route: sandbox keys of the session’s merchant only; outcomes are validated and final', async () => {
    const p = await challenged();
    const sid = p.actionRequired.sessionId;
    const prod = (await stack.key([client.merchantCode], 'private', 'production')).key;
    expectError(await authenticate(sid, 'authenticated', prod), 403, 'AUTH_INSUFFICIENT_SCOPE');
    const other = await sandboxMerchant(stack);
    expectError(await authenticate(sid, 'authenticated', other.key), 404, 'NOT_FOUND');
    expectError(await authenticate(sid, 'maybe'), 400, 'VALIDATION_FAILED', 'outcome');
    expect((await authenticate(sid, 'failed')).body.outcome).toBe('failed');
    expect((await authenticate(sid, 'failed')).status).toBe(200);
    expectError(await authenticate(sid, 'authenticated'), 409, 'INVALID_STATE');
  });

  it('the hosted challenge page is HTML whose buttons finish the challenge without a key', async () => {
    const p = await challenged();
    const sid: string = p.actionRequired.sessionId;
    const page = await fetch(`${stack.url}/v1/3ds/challenge/${sid}`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(html).toContain('data-outcome="authenticated"');
    expect(html).toContain('data-outcome="failed"');
    expect(html).toContain('10.00 USD');
    expect(html).toContain('400000****3155');
    expectError(await stack.http('GET', '/v1/3ds/challenge/ses_nope'), 404, 'NOT_FOUND');
    const clicked = await stack.http('POST', `/v1/3ds/challenge/${sid}`, { body: { outcome: 'authenticated' } });
    expect(clicked.body).toEqual({ sessionId: sid, outcome: 'authenticated' });
    expect(await (await fetch(`${stack.url}/v1/3ds/challenge/${sid}`)).text()).toContain('Verification finished');
    expect((await resume(sid)).body.status).toBe('captured');
  });

  it('tokenize on a challenged card: the token comes with the approving resume', async () => {
    const p = await challenged({ card: cardData(CHALLENGE, { tokenize: true }), shopper: { id: 'shopper-3ds' } });
    expect(p.token).toBeUndefined();
    await authenticate(p.actionRequired.sessionId);
    const r = await resume(p.actionRequired.sessionId);
    expect(r.body.token.token).toMatch(/^vt_/);
    const again = await client.purchase({ card: { tokenData: { token: r.body.token.token } } });
    expect(again.body.status).toBe('pending_3ds');
    const sessions = await paymentsQuery(stack, 'SELECT card_sealed FROM payment_sessions WHERE id = $1', [
      p.actionRequired.sessionId,
    ]);
    expect(sessions[0].card_sealed).toBeNull();
  });

  describe('the challenge is simulated: sandbox payments only', () => {
    const production = async () => {
      const prod = await stack.key([client.merchantCode], 'private', 'production');
      await stack.productionSimulator(client.merchantCode);
      return new PaymentsClient(stack, prod.key, client.merchantCode);
    };
    const click = (sid: string) =>
      stack.http('POST', `/v1/3ds/challenge/${sid}`, { body: { outcome: 'authenticated' } });

    it('a production purchase or authorization with the challenge card is declined at once, without a session', async () => {
      const prod = await production();
      for (const r of [
        await prod.purchase({ card: cardData(CHALLENGE) }),
        await prod.authorize({ card: cardData(CHALLENGE) }),
      ]) {
        expect(r.status).toBe(200);
        expect(r.body.status).toBe('declined');
        expect(r.body.refusalCode).toMatchObject({ reasonCode: '1A', recoveryAction: 'switch_method' });
        expect(r.body.refusalCode.reason).toMatch(/3-D Secure challenge .*sandbox only/);
        expect(r.body.actionRequired).toBeUndefined();
        expect(
          await paymentsQuery(stack, 'SELECT id FROM payment_sessions WHERE payment_id = $1', [r.body.id]),
        ).toEqual([]);
        expect(await events(r.body.id)).toEqual(['payment.refused']);
      }
    });

    it('a production session (one opened before the rule) is refused by the page, its buttons and resume: never captured', async () => {
      const p = await challenged();
      const sid: string = p.actionRequired.sessionId;
      // The only way to a production session now: one left by an older release, made here from a sandbox one.
      await paymentsQuery(stack, `UPDATE payment_sessions SET environment = 'production' WHERE id = $1`, [sid]);
      expectError(await stack.http('GET', `/v1/3ds/challenge/${sid}`), 403, 'AUTH_INSUFFICIENT_SCOPE', 'sessionId');
      expectError(await click(sid), 403, 'AUTH_INSUFFICIENT_SCOPE', 'sessionId');
      expectError(await resume(sid), 403, 'AUTH_INSUFFICIENT_SCOPE', 'sessionId');
      // Finished before the rule: still never resumed.
      await paymentsQuery(stack, `UPDATE payment_sessions SET status = 'authenticated' WHERE id = $1`, [sid]);
      expectError(await resume(sid), 403, 'AUTH_INSUFFICIENT_SCOPE', 'sessionId');
      expect((await client.get(p.id)).body.status).toBe('pending_3ds');
      // Back as it was, for the expiry sweeps of the tests that follow.
      await paymentsQuery(stack, `UPDATE payment_sessions SET environment = 'sandbox' WHERE id = $1`, [sid]);
    });

    it('the same card in sandbox still goes through the anonymous challenge route to captured', async () => {
      const p = await challenged();
      expect((await click(p.actionRequired.sessionId)).status).toBe(200);
      expect((await resume(p.actionRequired.sessionId)).body.status).toBe('captured');
    });
  });

  describe('expiry (15 minutes on the clock; expiry wins over every other check)', () => {
    it('an unfinished, a finished and a used session all answer 400 SESSION_EXPIRED after 15 minutes', async () => {
      const orderCode = `order-${uid()}`;
      const pending = await challenged({ orderCode });
      const finished = await challenged();
      await authenticate(finished.actionRequired.sessionId);
      const used = await challenged();
      await authenticate(used.actionRequired.sessionId);
      await resume(used.actionRequired.sessionId);
      clock.advance(15 * MINUTE - 1);
      expectError(await resume(pending.actionRequired.sessionId), 409, 'CHALLENGE_NOT_COMPLETED');
      clock.advance(1);
      for (const p of [pending, finished, used]) {
        expectError(await resume(p.actionRequired.sessionId), 400, 'SESSION_EXPIRED', 'sessionId');
      }
      expectError(await authenticate(pending.actionRequired.sessionId), 400, 'SESSION_EXPIRED');
      // The abandoned payment is cancelled (event written) and its order code can be retried.
      expect((await client.get(pending.id)).body).toMatchObject({ status: 'cancelled' });
      expect((await client.get(used.id)).body.status).toBe('captured');
      expect(await events(pending.id)).toEqual(['payment.pending', 'payment.cancelled']);
      expect((await client.purchase({ orderCode })).body.status).toBe('captured');
      const page = await fetch(`${stack.url}/v1/3ds/challenge/${finished.actionRequired.sessionId}`);
      expect(await page.text()).toContain('expired');
    });

    it('the sweep abandons payments whose session ran out without anyone resuming', async () => {
      const p = await challenged();
      clock.advance(15 * MINUTE);
      const sweeper = stack.services
        .get('payments')![0]
        .get<ExpirySweepLoop<PaymentSession>>(ExpirySweepLoop.tokenOf('threeds_expiry'));
      expect(await sweeper.runOnce()).toBeGreaterThanOrEqual(1);
      expect((await client.get(p.id)).body.status).toBe('cancelled');
      expect(await events(p.id)).toEqual(['payment.pending', 'payment.cancelled']);
      expectError(await resume(p.actionRequired.sessionId), 400, 'SESSION_EXPIRED');
      expect(await sweeper.runOnce()).toBe(0);
    });
  });
});
