import { randomUUID } from 'node:crypto';
import { RecoveryLoop } from '../../apps/payments/src/recovery/recovery.loop';
import { StripeDouble } from '../support/connectors/stripe/stripe-double';
import { TestStack } from '../support/stack';
import { ConnectorWire } from './connector-wire';
import { cardData, expectError, paymentEventTypes, PaymentsClient, paymentsQuery, usd } from './payments-fixtures';

/**
 * The Stripe connector as the payments module registers it, through the whole stack (gateway, payments, real
 * Postgres and NATS) to the Stripe double (objects shaped like Stripe's fixtures3.json): an operator adds
 * `stripe` connections through the admin API, and a merchant's production key pays through them.
 */
describe('Stripe connector through the stack', () => {
  const double = new StripeDouble();
  let wire: ConnectorWire;
  let stack: TestStack;
  let live: PaymentsClient;

  beforeAll(async () => {
    await double.start();
    wire = await ConnectorWire.start('stripe', double, double.certificate());
    ({ stack, live } = wire);
  });
  afterAll(async () => {
    await wire?.stop();
    await double.stop();
  });
  afterEach(() => expect(double.violations()).toEqual([]));

  const webhook = (w: { rawBody: Buffer; headers: Record<string, string> }) => wire.webhook(w);
  const intentOf = (paymentId: string) => wire.referenceOf(paymentId);

  it('a production purchase goes to the double (live mode) and answers captured', async () => {
    const r = await live.purchase();
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'captured', amountCaptured: usd(1000) });
    expect(double.ledger.intent(await intentOf(r.body.id))).toMatchObject({ status: 'succeeded' });
  });

  it('an authorization and capture; the signed webhook about it is accepted once', async () => {
    const a = await live.authorize();
    expect(a.body).toMatchObject({ status: 'authorized' });
    const captured = await live.capture(a.body.id, 600);
    expect(captured.status).toBe(200);
    expect((await live.get(a.body.id)).body).toMatchObject({ status: 'captured', amountCaptured: usd(600) });
    const delivery = double.webhook('capture', await intentOf(a.body.id), { amountValue: 600 });
    expect((await webhook(delivery)).status).toBe(200);
    expect((await webhook(delivery)).status).toBe(200);
    expect((await paymentEventTypes(stack, a.body.id)).filter((t) => t === 'payment.captured')).toHaveLength(1);
  });

  it('a partial refund is made at Stripe', async () => {
    const p = (await live.purchase()).body;
    expect((await live.refund(p.id, 300)).status).toBe(200);
    const delivery = double.webhook('refund', await intentOf(p.id), { amountValue: 300 });
    expect((await webhook(delivery)).status).toBe(200);
    expect((await live.get(p.id)).body).toMatchObject({ amountRefunded: usd(300) });
  });

  it("a 3DS challenge goes to Stripe's page and comes back through /v1/3ds/return", async () => {
    const p = (await live.purchase({ card: cardData('4000002500003155') })).body;
    expect(p).toMatchObject({ status: 'pending_3ds', actionRequired: { type: 'threeds_challenge' } });
    const sessionId = p.actionRequired.sessionId as string;
    const intent = await intentOf(p.id);
    const page = await fetch(`${stack.url}${new URL(p.actionRequired.url as string).pathname}`, {
      redirect: 'manual',
    });
    const stripePage = double.ledger.intent(intent)!.redirectUrl!;
    if (page.status === 303) expect(page.headers.get('location')).toBe(stripePage);
    else expect(await page.text()).toContain(stripePage);
    const details = await double.passChallenge(intent, true);
    const back = await stack.http('POST', `/v1/3ds/return/${sessionId}`, {
      rawBody: new URLSearchParams(details).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(back.status).toBe(200);
    expect((await live.get(p.id)).body).toMatchObject({ status: 'captured' });
  });

  it('a decline maps to our refusal code', async () => {
    const r = await live.purchase({ card: cardData('4000000000009995') });
    expect(r.body).toMatchObject({
      status: 'declined',
      refusalCode: { reasonCode: '51', recoveryAction: 'switch_method' },
    });
  });

  it('an answer lost after the charge leaves the payment unknown; the status sync settles it, the retry never charges twice', async () => {
    const key = randomUUID();
    const orderCode = `lost-${randomUUID()}`;
    double.dropAnswerAfterNextCharge();
    expectError(await live.purchase({ orderCode }, key), 504, 'UPSTREAM_TIMEOUT');
    const [attempt] = await paymentsQuery<{ request_reference: string; payment_id: string }>(
      stack,
      `SELECT a.request_reference, a.payment_id FROM acquirer_attempts a JOIN payments p ON p.id = a.payment_id
       WHERE p.order_code = $1`,
      [orderCode],
    );
    expect(double.chargesFor(attempt.request_reference)).toBe(1);
    await paymentsQuery(
      stack,
      "UPDATE acquirer_attempts SET reserved_at = now() - interval '1 minute' WHERE payment_id = $1",
      [attempt.payment_id],
    );
    expect(await stack.services.get('payments')![0].get(RecoveryLoop).runOnce()).toBeGreaterThanOrEqual(1);
    const replay = await live.purchase({ orderCode }, key);
    expect(replay.body).toMatchObject({ id: attempt.payment_id, status: 'captured' });
    expect(double.chargesFor(attempt.request_reference)).toBe(1);
  });

  it('never logs the connection credentials', () => {
    const logs = [...stack.logs.values()].map((l) => l.text()).join('\n');
    const { apiKey, webhookSecret } = double.connection('production').credentials;
    expect(logs).not.toContain(apiKey);
    expect(logs).not.toContain(webhookSecret);
  });
});
