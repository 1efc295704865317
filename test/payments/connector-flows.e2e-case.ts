import { randomUUID } from 'node:crypto';
import { RecoveryLoop } from '../../apps/payments/src/recovery/recovery.loop';
import { TestStack } from '../support/stack';
import {
  expectError,
  paymentEventTypes,
  PaymentsClient,
  paymentsQuery,
  sandboxMerchant,
  usd,
} from './payments-fixtures';
import { cardData } from './payments-fixtures';
import { PROVIDER_ACS_URL, SwitchableAcquirer, switchableWebhook } from './switchable-acquirer';

/**
 * A provider's answer lost after it took the charge (ConnectorOutcomeUnknown), through the whole stack: the
 * merchant is told the outcome is unknown (504), a retry with the same Idempotency-Key waits and then replays,
 * the provider's webhook or the recovery sweep's status sync records it, and the card is charged once. And the
 * inbound webhooks of a connection (POST /v1/connectors/{connectionId}/webhooks): verified, de-duplicated,
 * applied through the payment's transition table with our events.
 */
describe('connector flows: unknown outcomes and provider webhooks', () => {
  const acquirer = new SwitchableAcquirer();
  let stack: TestStack;
  let m: PaymentsClient;
  let sweeper: RecoveryLoop;
  let connectionId: string;

  beforeAll(async () => {
    stack = await TestStack.start({
      connectors: [acquirer],
      env: { RECOVERY_SWEEP_MS: '0', ACQUIRER_TIMEOUT_MS: '500' },
    });
    m = await sandboxMerchant(stack);
    sweeper = stack.services.get('payments')![0].get(RecoveryLoop);
    await m.purchase();
    [{ id: connectionId }] = await paymentsQuery<{ id: string }>(
      stack,
      "SELECT id FROM connections WHERE merchant_code = $1 AND connection_code = 'sandbox'",
      [m.merchantCode],
    );
  });
  afterEach(() => {
    acquirer.challenges = 'sandbox';
    acquirer.authorizations = 'sandbox';
    acquirer.modifications = 'sandbox';
  });
  afterAll(() => stack.stop());

  const post = (w: { rawBody: string; headers: Record<string, string> }, id = connectionId) =>
    stack.http('POST', `/v1/connectors/${id}/webhooks`, { rawBody: w.rawBody, headers: w.headers });
  const attemptOf = async (orderCode: string) =>
    (
      await paymentsQuery<{ request_reference: string; outcome_unknown_at: Date | null; payment_id: string }>(
        stack,
        `SELECT a.request_reference, a.outcome_unknown_at, a.payment_id FROM acquirer_attempts a
         JOIN payments p ON p.id = a.payment_id WHERE p.order_code = $1 AND p.merchant_code = $2`,
        [orderCode, m.merchantCode],
      )
    )[0];
  const chargesOf = (reference: string) => acquirer.authorizationCalls.filter((c) => c.reference === reference).length;
  const lostAnswer = async () => {
    const key = randomUUID();
    const orderCode = `unknown-${randomUUID()}`;
    acquirer.authorizations = 'unknown';
    const first = await m.purchase({ orderCode }, key);
    acquirer.authorizations = 'sandbox';
    return { key, orderCode, first };
  };

  it('a lost answer is 504 outcome unknown; the retry waits, the status sync records it, the retry replays it', async () => {
    const { key, orderCode, first } = await lostAnswer();
    expectError(first, 504, 'UPSTREAM_TIMEOUT');
    expect(first.body.error).toMatchObject({ message: expect.stringContaining('same Idempotency-Key') });
    const attempt = await attemptOf(orderCode);
    expect(attempt.outcome_unknown_at).not.toBeNull();

    // The merchant retries: nothing is sent to the acquirer again, the key is still in progress.
    expectError(await m.purchase({ orderCode }, key), 409, 'IDEMPOTENCY_IN_PROGRESS');
    expect(chargesOf(attempt.request_reference)).toBe(1);

    await paymentsQuery(
      stack,
      "UPDATE acquirer_attempts SET reserved_at = now() - interval '1 minute' WHERE payment_id = $1",
      [attempt.payment_id],
    );
    expect(await sweeper.runOnce()).toBeGreaterThanOrEqual(1);
    const replay = await m.purchase({ orderCode }, key);
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ id: attempt.payment_id, status: 'captured' });
    expect(chargesOf(attempt.request_reference)).toBe(1);
    expect(await paymentEventTypes(stack, attempt.payment_id)).toEqual(['payment.captured']);
  });

  it('a lost answer is recorded by the provider’s AUTHORISATION webhook, once however often it is delivered', async () => {
    const { key, orderCode, first } = await lostAnswer();
    expect(first.status).toBe(504);
    const attempt = await attemptOf(orderCode);
    const via = {
      connectionCode: 'sandbox',
      merchantCode: m.merchantCode,
      environment: 'sandbox' as const,
      credentials: {},
    };
    const synced = await acquirer.sync(via, { reference: attempt.request_reference });
    const webhook = switchableWebhook({
      kind: 'authorisation',
      success: true,
      acquirerReference: (synced as { acquirerReference: string }).acquirerReference,
      merchantReference: attempt.request_reference,
    });

    const delivered = await post(webhook);
    expect([delivered.status, delivered.body]).toEqual([200, { received: true }]);
    const replay = await m.purchase({ orderCode }, key);
    expect(replay.body).toMatchObject({ id: attempt.payment_id, status: 'captured' });

    expect((await post(webhook)).status).toBe(200);
    expect(await paymentEventTypes(stack, attempt.payment_id)).toEqual(['payment.captured']);
    expect(
      await paymentsQuery(stack, 'SELECT applied FROM provider_webhook_events WHERE payment_id = $1', [
        attempt.payment_id,
      ]),
    ).toEqual([{ applied: 'recorded' }]);
    expect(chargesOf(attempt.request_reference)).toBe(1);
  });

  it('a refund whose answer is lost waits for the sync, then replays; the refund is made once', async () => {
    const p = (await m.purchase({ amount: usd(1000) })).body;
    acquirer.modifications = 'unknown';
    const key = randomUUID();
    const lost = await m.refund(p.id, 300, key);
    expectError(lost, 504, 'UPSTREAM_TIMEOUT');
    expect(lost.body.error).toMatchObject({ paymentId: p.id, outcome: 'unknown' });
    acquirer.modifications = 'sandbox';
    expectError(await m.refund(p.id, 300, key), 409, 'IDEMPOTENCY_IN_PROGRESS');
    // In flight, it counts: 800 more would exceed what is left.
    expectError(await m.refund(p.id, 800), 422, 'AMOUNT_EXCEEDS_AVAILABLE');

    await paymentsQuery(
      stack,
      "UPDATE acquirer_attempts SET reserved_at = now() - interval '1 minute' WHERE payment_id = $1",
      [p.id],
    );
    expect(await sweeper.runOnce()).toBeGreaterThanOrEqual(1);
    expect((await m.refund(p.id, 300, key)).body).toMatchObject({ status: 'refunded', amount: usd(300) });
    expect((await m.get(p.id)).body).toMatchObject({ status: 'captured', amountRefunded: usd(300) });
    expect(acquirer.calls.filter((c) => c.kind === 'refund' && c.paymentId === p.id)).toHaveLength(1);
  });

  it('a webhook body over 256 KiB is 413, before anything is forwarded', async () => {
    const big = { rawBody: JSON.stringify({ pad: 'x'.repeat(300 * 1024) }), headers: {} };
    expectError(await post(big), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('a webhook that does not verify is 401 and changes nothing; an unknown connection is 404', async () => {
    const p = (await m.purchase({ amount: usd(1000) })).body;
    const [{ acquirer_reference }] = await paymentsQuery<{ acquirer_reference: string }>(
      stack,
      'SELECT acquirer_reference FROM payments WHERE id = $1',
      [p.id],
    );
    const forged = switchableWebhook(
      { kind: 'chargeback', success: true, acquirerReference: acquirer_reference },
      'not-the-key',
    );
    expectError(await post(forged), 401, 'AUTH_INVALID');
    expect((await m.get(p.id)).body.status).toBe('captured');
    expectError(
      await post(
        switchableWebhook({ kind: 'chargeback', success: true, acquirerReference: acquirer_reference }),
        randomUUID(),
      ),
      404,
      'NOT_FOUND',
    );
  });

  it('a capture the provider accepts for later is pending until its webhook; later failures move the payment', async () => {
    const p = (await m.authorize({ amount: usd(1000) })).body;
    const [{ acquirer_reference: acquirerReference }] = await paymentsQuery<{ acquirer_reference: string }>(
      stack,
      'SELECT acquirer_reference FROM payments WHERE id = $1',
      [p.id],
    );
    acquirer.modifications = 'pending';
    const key = randomUUID();
    const capture = await m.capture(p.id, 600, key);
    expect(capture.body).toMatchObject({ status: 'pending' });
    expect((await m.get(p.id)).body).toMatchObject({ status: 'authorized', amountCaptured: usd(0) });
    // Another capture waits for this one's answer.
    expectError(await m.capture(p.id, 400), 409, 'INVALID_STATE');

    const captured = switchableWebhook({ kind: 'capture', success: true, acquirerReference, amount: usd(600) });
    expect((await post(captured)).status).toBe(200);
    expect((await m.get(p.id)).body).toMatchObject({ status: 'captured', amountCaptured: usd(600) });

    acquirer.modifications = 'sandbox';
    expect((await m.refund(p.id, 200)).body).toMatchObject({ status: 'refunded' });
    const refundFailed = switchableWebhook({
      kind: 'refund_failed',
      success: false,
      acquirerReference,
      amount: usd(200),
    });
    expect((await post(refundFailed)).status).toBe(200);
    expect((await m.get(p.id)).body).toMatchObject({ status: 'captured', amountRefunded: usd(0) });

    expect((await post(switchableWebhook({ kind: 'chargeback', success: true, acquirerReference }))).status).toBe(200);
    expect((await m.get(p.id)).body.status).toBe('charged_back');
    expect(await paymentEventTypes(stack, p.id)).toEqual([
      'payment.authorized',
      'payment.captured',
      'payment.refunded',
      'payment.refund_failed',
      'payment.charged_back',
    ]);
  });

  it('a provider’s 3DS: the hosted page posts the shopper there, the return URL resumes with its result', async () => {
    acquirer.challenges = 'provider';
    const p = (await m.purchase({ card: cardData('4000002500003155') })).body;
    expect(p).toMatchObject({ status: 'pending_3ds', actionRequired: { type: 'threeds_challenge' } });
    const sessionId = p.actionRequired.sessionId as string;
    const sent = acquirer.authorizationCalls.find((c) => c.paymentId === p.id)!;
    expect(sent.returnUrl).toMatch(new RegExp(`/v1/3ds/return/${sessionId}$`));

    const page = await stack.http('GET', new URL(p.actionRequired.url as string).pathname);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`action="${PROVIDER_ACS_URL}"`);
    expect(page.body).toContain('name="creq"');
    expect(page.headers.get('content-security-policy')).toContain('form-action https://acs.provider.test');

    // Nobody answers the provider's challenge on our simulated page's behalf.
    expectError(
      await stack.http('POST', `/v1/3ds/challenge/${sessionId}`, { body: { outcome: 'authenticated' } }),
      409,
      'INVALID_STATE',
    );

    const back = () =>
      stack.http('POST', `/v1/3ds/return/${sessionId}`, {
        rawBody: 'redirectResult=AUTHORISED',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const returned = await back();
    expect(returned.status).toBe(200);
    expect(returned.body).toContain('data-status="captured"');
    expect(acquirer.completions.at(-1)).toMatchObject({ details: { redirectResult: 'AUTHORISED' }, capture: true });
    expect((await m.get(p.id)).body).toMatchObject({
      status: 'captured',
      threeDSecure: { flow: 'challenge', eci: '05', version: '2.2.0' },
    });
    // A reload shows the outcome again, without asking the provider a second time.
    const completions = acquirer.completions.length;
    expect((await back()).body).toContain('data-status="captured"');
    expect(acquirer.completions.length).toBe(completions);
    expect(await paymentEventTypes(stack, p.id)).toEqual(['payment.pending', 'payment.captured']);
  });

  it('a provider’s 3DS finished at the provider is recorded by its AUTHORISATION webhook if the shopper never returns', async () => {
    acquirer.challenges = 'provider';
    const p = (await m.authorize({ card: cardData('4000002500003155') })).body;
    expect(p.status).toBe('pending_3ds');
    const [{ acquirer_reference: acquirerReference }] = await paymentsQuery<{ acquirer_reference: string }>(
      stack,
      'SELECT acquirer_reference FROM payments WHERE id = $1',
      [p.id],
    );
    const authorised = switchableWebhook({ kind: 'authorisation', success: true, acquirerReference });
    expect((await post(authorised)).status).toBe(200);
    expect((await m.get(p.id)).body).toMatchObject({ status: 'authorized', amountCaptured: usd(0) });
    expect(await paymentEventTypes(stack, p.id)).toEqual(['payment.pending', 'payment.authorized']);
    expect(
      await paymentsQuery(stack, 'SELECT applied FROM provider_webhook_events WHERE payment_id = $1', [p.id]),
    ).toEqual([{ applied: 'moved' }]);
  });
});
