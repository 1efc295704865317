import { TestStack } from '../support/stack';
import {
  billingStack,
  BillingClient,
  billingQuery,
  cardData,
  CARDS,
  expectError,
  footprint,
  paymentsDb,
} from './billing-fixtures';

/** POST /v1/subscription failure paths: every decline is 402 and keeps nothing; payments down is 503. */
describe('subscription creation that fails', () => {
  let stack: TestStack;
  let m: BillingClient;
  let monthly: Record<string, any>;
  let trial: Record<string, any>;

  beforeAll(async () => {
    [stack, m] = await billingStack();
    monthly = await m.plan({ amount: 1999 });
    trial = await m.plan({ amount: 500, trialPeriodDays: 14 });
  });
  afterAll(() => stack.stop());

  describe('declines answer 402 PAYMENT_DECLINED and keep nothing', () => {
    const declined = async (body: Record<string, unknown>, reasonCode: string | null) => {
      const before = await footprint(stack, m.merchantCode);
      const r = await m.subscribe(body);
      expectError(r, 402, 'PAYMENT_DECLINED');
      expect(r.body.error.paymentId).toEqual(expect.any(String));
      if (reasonCode === null) expect(r.body.error.refusalCode).toBeNull();
      else expect(r.body.error.refusalCode).toMatchObject({ reasonCode });
      expect(await footprint(stack, m.merchantCode)).toEqual(before);
      return r;
    };

    it('a declined first charge (CIT)', async () => {
      const r = await declined({ planId: monthly.id, card: cardData(CARDS.declined) }, '5');
      const [p] = await paymentsDb(stack, 'SELECT status FROM payments WHERE id = $1', [r.body.error.paymentId]);
      expect(p.status).toBe('declined');
    });

    it('a declined verification (trial)', async () => {
      await declined({ planId: trial.id, card: cardData(CARDS.insufficientFunds) }, '51');
    });

    it('a card that needs 3DS cannot enrol: 402 "authentication required" (1A), no token', async () => {
      await declined({ planId: monthly.id, card: cardData(CARDS.challenge) }, '1A');
    });

    it('a processing failure', async () => {
      await declined({ planId: monthly.id, card: cardData(CARDS.failed) }, null);
    });

    it('record mode: the cycle 1 MIT declines (a card that declines merchant-initiated charges)', async () => {
      const { token } = await m.token(CARDS.mitInsufficientFunds);
      await declined({ planId: monthly.id, card: { tokenData: { token } } }, '51');
      const fraud = await m.token(CARDS.mitFraud);
      await declined({ planId: monthly.id, card: { tokenData: { token: fraud.token } } }, '59');
    });
  });

  it('the payments service down: 503 and nothing kept', async () => {
    const before = await footprint(stack, m.merchantCode);
    await stack.stopService('payments');
    try {
      expectError(await m.subscribe({ planId: monthly.id }), 503, 'SERVICE_UNAVAILABLE');
      expect((await footprint(stack, m.merchantCode)).subscriptions).toBe(before.subscriptions);
      expect(
        (
          await billingQuery(
            stack,
            'SELECT count(*)::int AS n FROM idempotency_keys WHERE merchant_code = $1 AND reserved_until IS NOT NULL',
            [m.merchantCode],
          )
        )[0].n,
      ).toBe(0);
    } finally {
      await stack.startService('payments');
    }
    expect((await m.subscribe({ planId: monthly.id })).status).toBe(201);
  });
});
