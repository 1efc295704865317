import { TestStack } from '../support/stack';
import { billingQuery, cardData, paymentsDb } from './billing-fixtures';
import { minute, TimeClient } from './renewal-fixtures';

jest.setTimeout(120_000);

/** The sandbox account updater's test cards (docs/testing.md). */
const UPDATER = {
  newExpiry: '4000000000004202',
  newNumber: '4000000000004301',
  closed: '4000000000004400',
  noInformation: '4000000000004509',
} as const;

/**
 * The account updater before renewals, on the sandbox clock: a vaulted card that expires before the next
 * renewal is checked ACCOUNT_UPDATER_DAYS_AHEAD (7) days ahead; the vault updates it in place or says it
 * cannot (`payment_method.updated` / `payment_method.expiring`); a closed account's renewal waits for a new card.
 */
describe('account updater', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['payments', 'payment-links', 'billing'],
      env: { RENEWAL_POLL_MS: '0', ACCOUNT_UPDATER_POLL_MS: '0' },
    });
  });
  afterAll(() => stack?.stop());

  /** A monthly subscription (from 2027-12-15) on a card that expires at the end of January 2028. */
  async function subscribed(
    card: string,
    expiry = { expiryMonth: '01', expiryYear: '2028' },
    start = '2027-12-15T00:00:00Z',
  ) {
    const c = await TimeClient.start(stack, start);
    const plan = await c.m.plan({ amount: 1500 });
    const s = await c.m.subscription({ planId: plan.id, card: cardData(card, expiry) });
    const [{ token }] = await billingQuery<{ token: string }>(
      stack,
      'SELECT card_token AS token FROM subscriptions WHERE id = $1',
      [s.id],
    );
    return { c, s, token };
  }

  const vaulted = async (token: string) =>
    (
      await paymentsDb<{ bin: string; last4: string; expiryMonth: string; expiryYear: string }>(
        stack,
        `SELECT bin, last4, expiry_month AS "expiryMonth", expiry_year AS "expiryYear" FROM stored_cards
          WHERE token = $1`,
        [token],
      )
    )[0];

  const events = (c: TimeClient) =>
    paymentsDb<{ type: string; createdAt: string; data: Record<string, any> }>(
      stack,
      `SELECT envelope->>'type' AS type, envelope->>'createdAt' AS "createdAt", envelope->'data' AS data FROM outbox
        WHERE envelope->>'type' LIKE 'payment_method.%' AND envelope->>'merchantCode' = $1 ORDER BY id`,
      [c.m.merchantCode],
    );

  it('a new expiry: checked 7 days before the renewal it would miss, updated in place, the token kept', async () => {
    const { c, s, token } = await subscribed(UPDATER.newExpiry);
    // The January renewal is before the card's expiry: nothing to ask.
    await c.advance({ to: '2028-01-15T01:00:00Z' });
    await c.advance({ to: '2028-02-07T00:00:00Z' });
    expect(await events(c)).toEqual([]);
    await c.advance({ to: '2028-02-09T00:00:00Z' });
    expect(await vaulted(token)).toMatchObject({ last4: '4202', expiryMonth: '01', expiryYear: '2031' });
    const [updated, ...more] = await events(c);
    expect(more).toEqual([]);
    expect(updated.type).toBe('payment_method.updated');
    // Stamped when the check fell due (7 days before the 02-15 renewal), not at the advance's target.
    expect(minute(updated.createdAt)).toBe('2028-02-08T00:00');
    expect(updated.data).toEqual({
      token,
      shopperId: s.id,
      brand: 'visa',
      last4: '4202',
      expirationDate: '2031-01-31T23:59:59.999Z',
      updaterAnswer: 'new_expiry',
    });
    await c.advance({ to: '2028-02-15T01:00:00Z' });
    expect((await c.invoices(s.id)).map((i) => i.status)).toEqual(['paid', 'paid', 'paid']);
    // Checked once for that renewal.
    expect(await events(c)).toHaveLength(1);
  });

  it('a new number: the vault reseals it under the same token', async () => {
    const { c, s, token } = await subscribed(UPDATER.newNumber);
    await c.advance({ to: '2028-02-09T00:00:00Z' });
    expect(await vaulted(token)).toMatchObject({ bin: '424242', last4: '4242', expiryYear: '2031' });
    expect((await events(c)).map((e) => [e.type, e.data.updaterAnswer, e.data.last4])).toEqual([
      ['payment_method.updated', 'new_number', '4242'],
    ]);
    await c.advance({ to: '2028-02-15T01:00:00Z' });
    expect((await c.sub(s.id)).status).toBe('active');
    expect((await c.renewalPayments(s.id)).map((p) => p.status)).toEqual(['captured', 'captured']);
  });

  it('no information: payment_method.expiring, the card as it was', async () => {
    const { c, token } = await subscribed(UPDATER.noInformation);
    await c.advance({ to: '2028-02-09T00:00:00Z' });
    expect(await vaulted(token)).toMatchObject({ expiryYear: '2028' });
    expect((await events(c)).map((e) => [e.type, e.data.updaterAnswer])).toEqual([
      ['payment_method.expiring', 'no_information'],
    ]);
  });

  it('a closed account: payment_method.expiring; its renewal is not charged and waits for a new card', async () => {
    // Its merchant-initiated charges are declined: enrolled after the last renewal before its expiry.
    const { c, s } = await subscribed(UPDATER.closed, undefined, '2028-01-15T00:00:00Z');
    await c.advance({ to: '2028-02-09T00:00:00Z' });
    expect((await events(c)).map((e) => [e.type, e.data.updaterAnswer])).toEqual([
      ['payment_method.expiring', 'closed'],
    ]);
    // Under the default policy a `switch_method` decline is retried the next day; not a closed account's.
    await c.advance({ to: '2028-02-15T01:00:00Z' });
    // At its time the renewal moves as a `switch_method` decline would, without a charge that cannot succeed.
    const sub = await c.sub(s.id);
    expect(sub).toMatchObject({ status: 'past_due', nextBillingDate: null });
    expect(sub.dunning).toMatchObject({
      waitingFor: 'payment_method',
      lastRefusal: { reasonCode: '46', recoveryAction: 'switch_method' },
      lastConnectionCode: null,
    });
    const [, open] = await c.invoices(s.id);
    expect(open).toMatchObject({ status: 'open', paymentAttemptCount: 0 });
    expect((await c.invoice(open.id)).attempts).toEqual([]);
    await c.advance({ to: '2028-02-28T00:00:00Z' });
    expect(await c.renewalPayments(s.id)).toEqual([]);
    const r = await c.op(s.id, 'payment-method', { card: cardData() });
    expect(r.body).toMatchObject({ status: 'active' });
    const paid = await c.invoice(open.id);
    expect(paid.status).toBe('paid');
    expect(paid.attempts.map((a: { status: string }) => a.status)).toEqual(['captured']);
  });

  it('one long advance: each renewal charges the card as the updater left it, the update listed before it', async () => {
    const { c, s, token } = await subscribed(UPDATER.newExpiry);
    await c.advance({ to: '2028-03-16T00:00:00Z' });
    expect(await vaulted(token)).toMatchObject({ expiryYear: '2031' });
    const [updated] = await events(c);
    expect(minute(updated.createdAt)).toBe('2028-02-08T00:00');
    expect((await c.invoices(s.id)).map((i) => i.status)).toEqual(['paid', 'paid', 'paid', 'paid']);
    expect((await c.renewalPayments(s.id)).map((p) => p.status)).toEqual(['captured', 'captured', 'captured']);
  });

  it('the sandbox honours expiry: without an update, the renewal after the expiry month is declined 54', async () => {
    const { c, s } = await subscribed(UPDATER.noInformation);
    await c.advance({ to: '2028-02-15T01:00:00Z' });
    const sub = await c.sub(s.id);
    expect(sub).toMatchObject({ status: 'past_due' });
    expect(sub.dunning).toMatchObject({ lastRefusal: { reasonCode: '54', reason: 'Expired card' } });
    // The January renewal, before the expiry, was charged.
    expect((await c.renewalPayments(s.id)).map((p) => p.status).sort()).toEqual(['captured', 'declined']);
  });

  it('a card that outlives the renewal is not sent to the updater', async () => {
    const { c } = await subscribed(UPDATER.newExpiry, { expiryMonth: '12', expiryYear: '2035' });
    await c.advance({ to: '2028-02-14T00:00:00Z' });
    expect(await events(c)).toEqual([]);
  });
});
