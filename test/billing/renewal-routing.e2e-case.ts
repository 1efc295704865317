import { SwitchableAcquirer } from '../payments/switchable-acquirer';
import { TestStack } from '../support/stack';
import { billingQuery, cardData, CARDS, paymentsDb } from './billing-fixtures';
import { minute, TimeClient } from './renewal-fixtures';

jest.setTimeout(120_000);

/**
 * Renewals through the merchant's routing (docs/testing.md: the cascade card is declined as `retry` on every
 * connection but the default `sandbox` one): a renewal cascades to the next connection citing the original
 * CIT's network transaction id; a dunning or forced retry starts on a connection that did not decline last.
 */
describe('renewals use the routing', () => {
  let stack: TestStack;
  const acquirer = new SwitchableAcquirer();

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['payments', 'payment-links', 'billing'],
      env: { RENEWAL_POLL_MS: '0' },
      connectors: [acquirer],
    });
  });
  afterAll(() => stack?.stop());

  /** A connection of the sandbox acquirer taking every card payment, tried before the default one (1000). */
  async function connection(c: TimeClient, connectionCode: string, priority: number): Promise<void> {
    const r = await stack.admin('POST', `/merchants/${c.m.merchantCode}/connections`, {
      connectionCode,
      connectionName: connectionCode,
      acquirer: 'sandbox',
      environment: 'sandbox',
      currencies: [],
      methods: ['card'],
      priority,
    });
    if (r.status !== 201) throw new Error(`connection: ${r.status} ${JSON.stringify(r.body)}`);
  }

  /** A subscription on the cascade card, enrolled on the default connection, with its network transaction id. */
  async function subscribed(c: TimeClient) {
    const plan = await c.m.plan({ amount: 1500 });
    const s = await c.m.subscription({ planId: plan.id, card: cardData(CARDS.cascade) });
    const [row] = await billingQuery<{ nti: string }>(
      stack,
      'SELECT network_transaction_id AS nti FROM subscriptions WHERE id = $1',
      [s.id],
    );
    expect(row.nti).toMatch(/^\d{15}$/);
    return { s, nti: row.nti };
  }

  /** The connections payments sent a renewal payment to, with what each call cited. */
  const callsOf = (paymentId: string) =>
    acquirer.authorizationCalls
      .filter((call) => call.paymentId === paymentId)
      .map((call) => ({
        connectionCode: call.connectionCode,
        initiator: call.initiator,
        networkTransactionId: call.networkTransactionId,
      }));

  it('a renewal declined as retry on the first connection is paid on the next at its scheduled time', async () => {
    const c = await TimeClient.start(stack, '2028-01-10T00:00:00Z');
    const { s, nti } = await subscribed(c);
    await connection(c, 'primary', 10);

    await c.advance({ to: '2028-02-10T01:00:00Z' });
    expect(await c.sub(s.id)).toMatchObject({ status: 'active', dunningAttemptCount: 0 });
    const [, renewal] = await c.invoices(s.id);
    expect(renewal).toMatchObject({ status: 'paid', paymentAttemptCount: 1 });
    expect(minute(renewal.paidAt)).toBe('2028-02-10T00:00');
    const { attempts } = await c.invoice(renewal.id);
    expect(attempts).toEqual([
      {
        at: expect.any(String),
        paymentId: expect.any(String),
        status: 'captured',
        refusalCode: null,
        connectionCode: 'sandbox',
        cascade: [
          { connectionCode: 'primary', outcome: 'declined', reasonCode: '5' },
          { connectionCode: 'sandbox', outcome: 'approved' },
        ],
      },
    ]);
    // One capture, one decline: one payment, captured, whose first connection refused it.
    expect((await c.renewalPayments(s.id)).map((p) => p.status)).toEqual(['captured']);
    const merchantInitiated = { initiator: 'merchant', networkTransactionId: nti };
    expect(callsOf(attempts[0].paymentId)).toEqual([
      { connectionCode: 'primary', ...merchantInitiated },
      { connectionCode: 'sandbox', ...merchantInitiated },
    ]);
    const events = await c.events(s.id);
    expect(events).not.toContain('subscription.past_due');
    expect(events).not.toContain('subscription.payment_failed');
    expect(events).not.toContain('invoice.payment_recovered');
  });

  /** Two connections that decline the card before the default one: the renewal fails on both, past_due. */
  async function declinedOnBoth(c: TimeClient, renewedAt: string) {
    const { s, nti } = await subscribed(c);
    await connection(c, 'primary', 10);
    await connection(c, 'secondary', 20);
    await c.advance({ to: renewedAt });
    expect(await c.sub(s.id)).toMatchObject({ status: 'past_due', dunningAttemptCount: 0 });
    const [, renewal] = await c.invoices(s.id);
    const [first] = (await c.invoice(renewal.id)).attempts;
    expect(first).toMatchObject({
      status: 'declined',
      connectionCode: 'secondary',
      cascade: [
        { connectionCode: 'primary', outcome: 'declined', reasonCode: '5' },
        { connectionCode: 'secondary', outcome: 'declined', reasonCode: '5' },
      ],
    });
    return { s, nti, renewal };
  }

  it('a dunning retry starts on a connection that did not decline the renewal', async () => {
    const c = await TimeClient.start(stack, '2028-03-10T00:00:00Z');
    const { s, nti, renewal } = await declinedOnBoth(c, '2028-04-10T01:00:00Z');

    await c.advance({ to: '2028-04-11T01:00:00Z' });
    expect(await c.sub(s.id)).toMatchObject({ status: 'active', dunningAttemptCount: 0 });
    const full = await c.invoice(renewal.id);
    expect(full).toMatchObject({ status: 'paid', paymentAttemptCount: 2 });
    expect(full.attempts[1]).toMatchObject({ status: 'captured', connectionCode: 'sandbox' });
    expect(full.attempts[1].cascade).toBeUndefined();
    expect(callsOf(full.attempts[1].paymentId)).toEqual([
      { connectionCode: 'sandbox', initiator: 'merchant', networkTransactionId: nti },
    ]);
    expect((await c.renewalPayments(s.id)).map((p) => p.status)).toEqual(['declined', 'captured']);
    expect(await c.events(s.id)).toContain('invoice.payment_recovered');
  });

  it('a forced retry starts on a connection that did not decline last', async () => {
    const c = await TimeClient.start(stack, '2028-05-10T00:00:00Z');
    const { s, renewal } = await declinedOnBoth(c, '2028-06-10T01:00:00Z');

    const r = await c.op(s.id, 'retry-payment');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'active', dunningAttemptCount: 0 });
    const full = await c.invoice(renewal.id);
    expect(full.attempts.map((a: { connectionCode: string }) => a.connectionCode)).toEqual(['secondary', 'sandbox']);
    const [payment] = await paymentsDb<{ status: string }>(stack, 'SELECT status FROM payments WHERE id = $1', [
      full.attempts[1].paymentId,
    ]);
    expect(payment.status).toBe('captured');
  });
});
