import { randomUUID } from 'node:crypto';
import { AdyenDouble } from '../support/connectors/adyen/adyen-double';
import { selfSignedCert } from '../support/self-signed-cert';
import { TestStack } from '../support/stack';
import { ConnectorWire } from './connector-wire';
import { cardData, expectError, paymentEventTypes, PaymentsClient, paymentsQuery, usd } from './payments-fixtures';

/**
 * The Adyen connector as the payments module registers it, through the whole stack (gateway, payments, real
 * Postgres and NATS) to the Adyen double (bound to Adyen's Checkout v71 and webhook documents): an operator adds
 * `adyen` connections through the admin API, and a merchant's production key pays through them.
 */
describe('Adyen connector through the stack', () => {
  const double = new AdyenDouble();
  let wire: ConnectorWire;
  let stack: TestStack;
  let live: PaymentsClient;
  let test: PaymentsClient;

  beforeAll(async () => {
    await double.start();
    wire = await ConnectorWire.start('adyen', double, selfSignedCert().cert);
    ({ stack, live, test } = wire);
  });
  afterAll(async () => {
    await wire?.stop();
    await double.stop();
  });
  afterEach(() => expect(double.violations()).toEqual([]));

  const webhook = (w: { rawBody: Buffer; headers: Record<string, string> }) => wire.webhook(w);
  const pspOf = (paymentId: string) => wire.referenceOf(paymentId);

  it('a production purchase goes to the double and answers captured', async () => {
    const r = await live.purchase();
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'captured', amountCaptured: usd(1000) });
    const psp = await pspOf(r.body.id);
    expect(double.operations.payment(psp)).toMatchObject({ pspReference: psp });
    expect(double.received.at(-1)).toMatchObject({ path: '/v71/payments', idempotencyKey: expect.any(String) });
  });

  it('a sandbox purchase goes to the sandbox adyen connection: the test API key, not the live one', async () => {
    const r = await test.purchase();
    expect(r.body).toMatchObject({ status: 'captured' });
    expect(double.operations.payment(await pspOf(r.body.id))).toMatchObject({ live: false });
    const p = (await live.purchase()).body;
    expect(double.operations.payment(await pspOf(p.id))).toMatchObject({ live: true });
  });

  it('an authorization and capture: pending until the signed CAPTURE webhook settles it, with our event', async () => {
    const a = await live.authorize();
    expect(a.body).toMatchObject({ status: 'authorized' });
    const captured = await live.capture(a.body.id, 1000);
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({ status: 'pending' });
    const psp = await pspOf(a.body.id);
    const delivery = double.webhook('capture', psp, { amountValue: 1000 });
    const answer = await webhook(delivery);
    expect(answer.status).toBe(200);
    expect(String(answer.body)).toContain('[accepted]');
    expect((await live.get(a.body.id)).body).toMatchObject({ status: 'captured', amountCaptured: usd(1000) });
    expect(await paymentEventTypes(stack, a.body.id)).toContain('payment.captured');
    // The same delivery again is de-duplicated: one event.
    expect((await webhook(delivery)).status).toBe(200);
    expect((await paymentEventTypes(stack, a.body.id)).filter((t) => t === 'payment.captured')).toHaveLength(1);
  });

  it('a refund is sent to Adyen and settled by its REFUND webhook', async () => {
    const p = (await live.purchase()).body;
    const refund = await live.refund(p.id, 300);
    expect(refund.status).toBe(200);
    const psp = await pspOf(p.id);
    expect(double.operations.payment(psp)?.modifications).toEqual([
      expect.objectContaining({ kind: 'refund', amount: { currency: 'USD', value: 300 } }),
    ]);
    expect((await webhook(double.webhook('refund', psp, { amountValue: 300 }))).status).toBe(200);
    expect((await live.get(p.id)).body).toMatchObject({ amountRefunded: usd(300) });
  });

  it("a 3DS challenge goes to Adyen's page and comes back through /v1/3ds/return", async () => {
    const p = (await live.purchase({ card: cardData('4000002500003155') })).body;
    expect(p).toMatchObject({ status: 'pending_3ds', actionRequired: { type: 'threeds_challenge' } });
    const sessionId = p.actionRequired.sessionId as string;
    // The hosted page sends the browser on to the double's 3DS page.
    const page = await fetch(`${stack.url}${new URL(p.actionRequired.url as string).pathname}`, { redirect: 'manual' });
    const psp = await pspOf(p.id);
    if (page.status === 303) expect(page.headers.get('location')).toBe(double.operations.challengeUrl(psp));
    else expect(await page.text()).toContain(double.operations.challengeUrl(psp)!);
    const { redirectResult } = await double.passChallenge(psp, true);
    const back = await stack.http('POST', `/v1/3ds/return/${sessionId}`, {
      rawBody: `redirectResult=${encodeURIComponent(redirectResult)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(back.status).toBe(200);
    expect((await live.get(p.id)).body).toMatchObject({ status: 'captured', threeDSecure: { flow: 'challenge' } });
  });

  it('a decline maps to our refusal code', async () => {
    const r = await live.purchase({ card: cardData('4000000000009995') });
    expect(r.body).toMatchObject({
      status: 'declined',
      refusalCode: { reasonCode: '51', recoveryAction: 'switch_method' },
    });
  });

  it('an answer lost after the charge leaves the payment unknown; the webhook settles it, the retry never charges twice', async () => {
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
    const taken = double.operations.paymentFor(attempt.request_reference)!;
    expect((await webhook(double.webhook('authorisation', taken.pspReference, { amountValue: 1000 }))).status).toBe(
      200,
    );
    const replay = await live.purchase({ orderCode }, key);
    expect(replay.body).toMatchObject({ id: attempt.payment_id, status: 'captured' });
    expect(double.chargesFor(attempt.request_reference)).toBe(1);
  });

  it('never logs the connection credentials', () => {
    const logs = [...stack.logs.values()].map((l) => l.text()).join('\n');
    const { apiKey, hmacKey } = double.connection('production').credentials;
    expect(logs).not.toContain(apiKey);
    expect(logs).not.toContain(hmacKey);
  });
});
