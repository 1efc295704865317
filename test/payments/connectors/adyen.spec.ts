import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADYEN_REFUSALS } from '../../../apps/payments/src/connector/adyen/adyen-refusals';
import {
  ConnectorNotSent,
  ConnectorOutcomeUnknown,
  WebhookRejected,
  type ConnectorConnection,
  type ProviderConnector,
} from '../../../apps/payments/src/connector/provider-connector';
import { AdyenDouble } from '../../support/connectors/adyen/adyen-double';
import { refusalHolderName } from '../../support/connectors/adyen/adyen-ledger';
import { approved, card, EUR, request } from '../../support/connectors/adyen/adyen-requests';

describe('Adyen connector against the Checkout v71 double', () => {
  const double = new AdyenDouble();
  let connector: ProviderConnector;
  let sandbox: ConnectorConnection;

  beforeAll(async () => {
    await double.start();
    connector = double.connector();
    sandbox = double.connection('sandbox');
  });
  afterAll(() => double.stop());
  afterEach(() => expect(double.violations()).toEqual([]));

  const sent = (reference: string) => double.received.filter((r) => r.idempotencyKey === reference);

  it('purchases: captured at once, our reference as Idempotency-Key and merchant reference, raw scheme card', async () => {
    const r = request();
    const outcome = approved(await connector.authorize(sandbox, r));
    expect(outcome.acquirerReference).toMatch(/^[A-Z0-9]{16}$/);
    expect(outcome.authorizationCode).toMatch(/^\d{6}$/);
    expect(outcome.networkTransactionId).toMatch(/^\d{15}$/);
    const [call] = sent(r.reference);
    expect(call.path).toBe('/v71/payments');
    expect(call.body).toMatchObject({
      reference: r.reference,
      merchantAccount: double.merchantAccount,
      amount: { currency: 'EUR', value: 1000 },
      captureDelayHours: 0,
      shopperInteraction: 'Ecommerce',
      paymentMethod: { type: 'scheme', number: '4111111111111111', expiryMonth: '03', expiryYear: '2030', cvc: '737' },
    });
    expect(double.operations.payment(outcome.acquirerReference)).toMatchObject({ captured: 1000 });
  });

  it('authorizes, then captures twice in part: each capture pending with its own reference', async () => {
    const auth = approved(await connector.authorize(sandbox, request({ capture: false, amount: EUR(5000) })));
    expect(sent(double.operations.payment(auth.acquirerReference)!.reference)[0].body.additionalData).toEqual({
      manualCapture: 'true',
    });
    const capture = (value: number) =>
      connector.capture(sandbox, {
        paymentId: randomUUID(),
        reference: `cap_${randomUUID()}`,
        acquirerReference: auth.acquirerReference,
        amount: EUR(value),
      });
    const first = await capture(2000);
    const second = await capture(3000);
    expect(first).toEqual({ kind: 'pending', providerReference: expect.stringMatching(/^[A-Z0-9]{16}$/) });
    expect(second.kind).toBe('pending');
    expect(second).not.toEqual(first);
    expect(double.operations.payment(auth.acquirerReference)!.captured).toBe(5000);
    expect(connector.capabilities.multipleCaptures).toBe(true);
    // Beyond the authorization: Adyen refuses it, nothing changes.
    const third = await capture(1);
    expect(third).toMatchObject({ kind: 'failed', message: expect.stringContaining('137') });
    const webhook = double.webhook('capture', auth.acquirerReference, {
      modificationReference: (first as { providerReference: string }).providerReference,
    });
    const [n] = connector.parseWebhook(sandbox, webhook.rawBody, webhook.headers);
    expect(n).toMatchObject({
      kind: 'capture',
      success: true,
      acquirerReference: auth.acquirerReference,
      modificationReference: (first as { providerReference: string }).providerReference,
      amount: EUR(2000),
      providerEvent: 'CAPTURE',
    });
  });

  it('refunds a purchase twice in part, and refuses a refund beyond what was captured', async () => {
    const sale = approved(await connector.authorize(sandbox, request({ amount: EUR(1000) })));
    const refund = (value: number, reason?: string) =>
      connector.refund(sandbox, {
        paymentId: randomUUID(),
        reference: `ref_${randomUUID()}`,
        acquirerReference: sale.acquirerReference,
        amount: EUR(value),
        reason,
      });
    expect((await refund(300, 'return')).kind).toBe('pending');
    expect((await refund(700)).kind).toBe('pending');
    expect((await refund(1)).kind).toBe('failed');
    expect(double.operations.payment(sale.acquirerReference)!.refunded).toBe(1000);
    const refundCalls = double.received.filter((c) => c.path.endsWith('/refunds'));
    expect(refundCalls[refundCalls.length - 3].body).toMatchObject({ merchantRefundReason: 'RETURN' });
  });

  it('cancels an authorization (pending until the CANCELLATION webhook)', async () => {
    const auth = approved(await connector.authorize(sandbox, request({ capture: false })));
    const outcome = await connector.cancel(sandbox, {
      paymentId: randomUUID(),
      reference: `can_${randomUUID()}`,
      acquirerReference: auth.acquirerReference,
      amount: EUR(1000),
    });
    expect(outcome.kind).toBe('pending');
    expect(double.operations.payment(auth.acquirerReference)!.status).toBe('cancelled');
    const webhook = double.webhook('cancellation', auth.acquirerReference);
    expect(connector.parseWebhook(sandbox, webhook.rawBody, webhook.headers)[0]).toMatchObject({
      kind: 'cancellation',
      acquirerReference: auth.acquirerReference,
      modificationReference: (outcome as { providerReference: string }).providerReference,
    });
  });

  it.each(ADYEN_REFUSALS.map((row) => [row.adyenCode, row.adyenReason, row] as const))(
    'maps refusalReasonCode %s (%s)',
    async (adyenCode, adyenReason, row) => {
      const outcome = await connector.authorize(
        sandbox,
        request({ card: card('4111111111111111', { cardholderName: refusalHolderName(adyenCode) }) }),
      );
      expect(outcome).toEqual({
        kind: 'declined',
        acquirerReference: expect.stringMatching(/^[A-Z0-9]{16}$/),
        refusalCode: {
          reasonCode: row.reasonCode,
          reason: row.reason,
          originalReasonCode: adyenCode,
          originalReason: adyenReason,
          recoveryAction: row.recoveryAction,
        },
      });
    },
  );

  it('maps the refusals a merchant meets most to the codes the sandbox uses', () => {
    const byCode = new Map(ADYEN_REFUSALS.map((r) => [r.adyenCode, [r.reasonCode, r.recoveryAction]]));
    expect(byCode.get('2')).toEqual(['5', 'retry']);
    expect(byCode.get('12')).toEqual(['51', 'switch_method']);
    expect(byCode.get('6')).toEqual(['54', 'switch_method']);
    expect(byCode.get('24')).toEqual(['82', 'switch_method']);
    expect(byCode.get('20')).toEqual(['59', 'terminal']);
    expect(byCode.get('11')).toEqual(['Q1', 'switch_method']);
    expect(byCode.get('38')).toEqual(['1A', 'switch_method']);
  });

  it('documents the same refusal table in docs/connectors-adyen.md', () => {
    const doc = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'connectors-adyen.md'), 'utf8');
    const documented = doc
      .split('\n')
      .filter((line) => /^\|\s*`\d+`\s*\|/.test(line))
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim().replace(/^`|`$/g, '')),
      );
    expect(documented).toEqual(
      ADYEN_REFUSALS.map((r) => [r.adyenCode, r.adyenReason, r.reasonCode, r.reason, r.recoveryAction]),
    );
  });

  it("declines the conformance cards with the issuer's raw code: 5 retry, 51 switch_method", async () => {
    const doNotHonor = await connector.authorize(sandbox, request({ card: card('4000000000000002') }));
    expect(doNotHonor).toMatchObject({
      kind: 'declined',
      refusalCode: { reasonCode: '5', recoveryAction: 'retry', originalReasonCode: '2' },
    });
    const funds = await connector.authorize(sandbox, request({ card: card('4000000000009995') }));
    expect(funds).toMatchObject({
      kind: 'declined',
      refusalCode: { reasonCode: '51', recoveryAction: 'switch_method', originalReasonCode: '12' },
    });
  });
  it("sends a 3DS challenge to Adyen's redirect page and completes it through /payments/details", async () => {
    const r = request({ card: card('4000002500003155') });
    const outcome = await connector.authorize(sandbox, r);
    if (outcome.kind !== 'challenge_required') throw new Error(JSON.stringify(outcome));
    expect(outcome.action).toEqual({ type: 'redirect', method: 'GET', url: expect.stringMatching(/\/3ds\//) });
    expect(sent(r.reference)[0].body).toMatchObject({
      returnUrl: r.returnUrl,
      authenticationData: { threeDSRequestData: { nativeThreeDS: 'disabled' } },
    });
    expect(double.chargesFor(r.reference)).toBe(0);
    const details = await double.passChallenge(outcome.acquirerReference, true);
    const completion = {
      reference: `3ds_${randomUUID()}`,
      acquirerReference: outcome.acquirerReference,
      authenticated: true,
      details,
      capture: true,
      amount: r.amount,
    };
    const final = approved(await connector.completeChallenge(sandbox, completion));
    expect(final.acquirerReference).toBe(outcome.acquirerReference);
    expect(final.threeDs).toEqual({ flow: 'challenge', eci: '05', version: '2.2.0' });
    expect(sent(completion.reference)[0]).toMatchObject({
      path: '/v71/payments/details',
      body: { details: { redirectResult: details.redirectResult } },
    });
    expect(double.chargesFor(r.reference)).toBe(1);
  });

  it('declines Q1 when the shopper fails the challenge', async () => {
    const outcome = await connector.authorize(sandbox, request({ card: card('4000002500003155') }));
    if (outcome.kind !== 'challenge_required') throw new Error(JSON.stringify(outcome));
    const details = await double.passChallenge(outcome.acquirerReference, false);
    const final = await connector.completeChallenge(sandbox, {
      reference: `3ds_${randomUUID()}`,
      acquirerReference: outcome.acquirerReference,
      authenticated: false,
      details,
      capture: true,
      amount: EUR(1000),
    });
    expect(final).toMatchObject({ kind: 'declined', refusalCode: { reasonCode: 'Q1', originalReasonCode: '11' } });
  });

  it('approves a frictionless 3DS card without a challenge and says so', async () => {
    const outcome = approved(await connector.authorize(sandbox, request({ card: card('4000003220000000') })));
    expect(outcome.threeDs).toEqual({ flow: 'frictionless', eci: '05', version: '2.2.0' });
  });

  it('charges a stored card merchant-initiated: ContAuth, recurringProcessingModel and the network tx id', async () => {
    const first = approved(await connector.authorize(sandbox, request()));
    const r = request({
      initiator: 'merchant',
      networkTransactionId: first.networkTransactionId,
      returnUrl: undefined,
      card: card('4111111111111111', { cvv: undefined }),
    });
    approved(await connector.authorize(sandbox, r));
    const body = sent(r.reference)[0].body;
    expect(body).toMatchObject({
      shopperInteraction: 'ContAuth',
      recurringProcessingModel: 'UnscheduledCardOnFile',
      paymentMethod: { type: 'scheme', networkPaymentReference: first.networkTransactionId },
    });
    expect(body.paymentMethod).not.toHaveProperty('cvc');
    expect(body).not.toHaveProperty('authenticationData');
    // Without the original id the issuer asks for authentication.
    const bare = await connector.authorize(sandbox, request({ initiator: 'merchant', card: card('4111111111111111') }));
    expect(bare).toMatchObject({ kind: 'declined', refusalCode: { reasonCode: '1A' } });
  });

  it.each([[{ currency: 'JPY', value: 1500, exponent: 0 }], [{ currency: 'KWD', value: 12345, exponent: 3 }]])(
    'sends %j in minor units with the currency exponent',
    async (amount) => {
      const r = request({ amount, capture: false });
      const outcome = approved(await connector.authorize(sandbox, r));
      expect(double.operations.payment(outcome.acquirerReference)!.amount).toEqual({
        currency: amount.currency,
        value: amount.value,
      });
      const capture = await connector.capture(sandbox, {
        paymentId: r.paymentId,
        reference: `cap_${randomUUID()}`,
        acquirerReference: outcome.acquirerReference,
        amount,
      });
      expect(capture.kind).toBe('pending');
      const webhook = double.webhook('capture', outcome.acquirerReference);
      expect(connector.parseWebhook(sandbox, webhook.rawBody, webhook.headers)[0].amount).toEqual(amount);
    },
  );

  it("refuses to send an amount whose exponent is not the currency's", async () => {
    const r = request({ amount: { currency: 'JPY', value: 1500, exponent: 2 } });
    await expect(connector.authorize(sandbox, r)).rejects.toThrow(/exponent 0/);
    expect(sent(r.reference)).toHaveLength(0);
  });

  it('keeps the Idempotency-Key across retries: the same answer, one charge', async () => {
    const r = request();
    const first = approved(await connector.authorize(sandbox, r));
    const again = approved(await connector.authorize(sandbox, r));
    expect(again.acquirerReference).toBe(first.acquirerReference);
    expect(sent(r.reference).map((c) => c.idempotencyKey)).toEqual([r.reference, r.reference]);
    expect(double.chargesFor(r.reference)).toBe(1);
  });

  it('leaves the outcome unknown when the socket hangs up after the charge; the resend replays it', async () => {
    const r = request();
    double.dropAnswerAfterNextCharge();
    await expect(connector.authorize(sandbox, r)).rejects.toBeInstanceOf(ConnectorOutcomeUnknown);
    expect(double.chargesFor(r.reference)).toBe(1);
    const resend = approved(await connector.authorize(sandbox, r));
    expect(double.chargesFor(r.reference)).toBe(1);
    expect(double.operations.paymentFor(r.reference)!.pspReference).toBe(resend.acquirerReference);
    expect(await connector.sync(sandbox, { reference: r.reference })).toBeUndefined();
    expect(connector.capabilities.statusSync).toBe(false);
  });

  it('leaves the outcome unknown on a 5xx after the charge', async () => {
    const r = request();
    double.serverErrorAfterNextCharge();
    await expect(connector.authorize(sandbox, r)).rejects.toBeInstanceOf(ConnectorOutcomeUnknown);
    approved(await connector.authorize(sandbox, r));
    expect(double.chargesFor(r.reference)).toBe(1);
  });

  it('leaves the outcome unknown when Adyen takes the charge and answers after the timeout', async () => {
    const slow = new AdyenDouble({ latencyMs: 400, connectorTimeoutMs: 100 });
    await slow.start();
    try {
      const r = request();
      await expect(slow.connector().authorize(slow.connection('sandbox'), r)).rejects.toBeInstanceOf(
        ConnectorOutcomeUnknown,
      );
      expect(slow.chargesFor(r.reference)).toBe(1);
      expect(slow.violations()).toEqual([]);
    } finally {
      await slow.stop();
    }
  });

  it('says not sent when nothing listens at the endpoint', async () => {
    const closed = new AdyenDouble();
    await closed.start();
    const gone = closed.connection('sandbox');
    await closed.stop();
    await expect(connector.authorize(gone, request())).rejects.toBeInstanceOf(ConnectorNotSent);
  });

  it('fails (not unknown) when Adyen refuses the API key', async () => {
    const wrongKey = { ...sandbox, credentials: { ...sandbox.credentials, apiKey: 'AQE_wrong' } };
    expect(await connector.authorize(wrongKey, request())).toMatchObject({
      kind: 'failed',
      acquirerReference: null,
      message: expect.stringContaining('401'),
    });
  });

  it('goes to production connections with the live key, and their webhooks must say live', async () => {
    const production = double.connection('production');
    const outcome = approved(await connector.authorize(production, request()));
    const webhook = double.webhook('authorisation', outcome.acquirerReference);
    expect(connector.parseWebhook(production, webhook.rawBody, webhook.headers)[0].success).toBe(true);
    expect(() => connector.parseWebhook(sandbox, webhook.rawBody, webhook.headers)).toThrow(WebhookRejected);
  });
});
