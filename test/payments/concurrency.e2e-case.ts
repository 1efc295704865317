import { TestStack } from '../support/stack';
import { PaymentsClient, paymentsQuery, sandboxMerchant, usd } from './payments-fixtures';

/** Operations row-lock the payment: concurrent ones queue up and see each other's totals. */
describe('concurrent operations on one payment', () => {
  let stack: TestStack;
  let m: PaymentsClient;

  beforeAll(async () => {
    // Two replicas of the service share the work, as in production.
    stack = await TestStack.start();
    await stack.startService('payments');
    m = await sandboxMerchant(stack);
  });
  afterAll(() => stack.stop());

  it('30 concurrent partial refunds never exceed the captured amount', async () => {
    const p = (await m.purchase({ amount: usd(1000) })).body;
    const answers = await Promise.all(Array.from({ length: 30 }, () => m.refund(p.id, 70)));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(14);
    answers
      .filter((a) => a.status !== 200)
      .forEach((a) => expect([a.status, a.body.error.code]).toEqual([422, 'AMOUNT_EXCEEDS_AVAILABLE']));
    const after = (await m.get(p.id)).body;
    expect(after).toMatchObject({ status: 'captured', amountRefunded: usd(980), amountCaptured: usd(1000) });
    const [sum] = await paymentsQuery<{ total: string }>(
      stack,
      "SELECT sum(amount_value) AS total FROM payment_operations WHERE payment_id = $1 AND kind = 'refund'",
      [p.id],
    );
    expect(Number(sum.total)).toBe(980);
    const events = await paymentsQuery(
      stack,
      "SELECT id FROM outbox WHERE type = 'payment.refunded' AND envelope->'data'->>'id' = $1",
      [p.id],
    );
    expect(events).toHaveLength(14);
  });

  it('30 concurrent refunds that add up exactly end refunded, once', async () => {
    const p = (await m.purchase({ amount: usd(3000) })).body;
    const answers = await Promise.all(Array.from({ length: 30 }, () => m.refund(p.id, 100)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect((await m.get(p.id)).body).toMatchObject({ status: 'refunded', amountRefunded: usd(3000) });
  });

  it('10 concurrent captures capture once', async () => {
    const p = (await m.authorize({ amount: usd(1000) })).body;
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => m.capture(p.id, 500 + i)));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    answers
      .filter((a) => a.status !== 200)
      .forEach((a) => expect([a.status, a.body.error.code]).toEqual([409, 'INVALID_STATE']));
    expect((await m.get(p.id)).body.amountCaptured).toEqual(ok[0].body.amount);
    const captures = await paymentsQuery(
      stack,
      "SELECT id FROM payment_operations WHERE payment_id = $1 AND kind = 'capture'",
      [p.id],
    );
    expect(captures).toHaveLength(1);
  });

  it('a capture racing a cancel: exactly one wins', async () => {
    const p = (await m.authorize({ amount: usd(1000) })).body;
    const [capture, cancel] = await Promise.all([m.capture(p.id, 1000), m.operate(p.id, 'cancel')]);
    expect([capture.status, cancel.status].sort()).toEqual([200, 409]);
    const status = (await m.get(p.id)).body.status;
    expect(status).toBe(capture.status === 200 ? 'captured' : 'cancelled');
  });
});
