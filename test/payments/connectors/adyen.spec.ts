import { randomUUID } from 'node:crypto';
import type { AmountJson } from '@app/money';
import { ADYEN_REFUSALS } from '../../../apps/payments/src/connector/adyen/adyen-refusals';
import {
  ConnectorNotSent,
  ConnectorOutcomeUnknown,
  WebhookRejected,
  type AuthorizationOutcome,
  type AuthorizationRequest,
  type ConnectorConnection,
  type ProviderConnector,
} from '../../../apps/payments/src/connector/provider-connector';
import type { ResolvedCard } from '../../../apps/payments/src/purchase/instrument';
import { AdyenDouble } from '../../support/connectors/adyen/adyen-double';
import { refusalHolderName } from '../../support/connectors/adyen/adyen-ledger';

const EUR = (value: number): AmountJson => ({ currency: 'EUR', value, exponent: 2 });

const card = (cardNumber: string, extra: Partial<ResolvedCard> = {}): ResolvedCard => ({
  source: 'cardData',
  cardNumber,
  expiryMonth: '3',
  expiryYear: '2030',
  cvv: '737',
  cardholderName: 'Jo Doe',
  brand: 'visa',
  type: 'credit',
  tokenize: false,
  ...extra,
});

const request = (overrides: Partial<AuthorizationRequest> = {}): AuthorizationRequest => ({
  paymentId: randomUUID(),
  reference: `res_${randomUUID()}`,
  amount: EUR(1000),
  capture: true,
  paymentMethod: 'card',
  card: card('4111111111111111'),
  initiator: 'cardholder',
  returnUrl: 'https://gateway.test/3ds/return?payment=1',
  ...overrides,
});

function approved(outcome: AuthorizationOutcome): Extract<AuthorizationOutcome, { kind: 'approved' }> {
  if (outcome.kind !== 'approved') throw new Error(`expected approved, got ${JSON.stringify(outcome)}`);
  return outcome;
}

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
});
