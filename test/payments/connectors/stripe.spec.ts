import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  AuthorizationRequest,
  ConnectorConnection,
  ModificationRequest,
} from '../../../apps/payments/src/connector/provider-connector';
import { STRIPE_DECLINES } from '../../../apps/payments/src/connector/stripe/stripe-refusals';
import type { ResolvedCard } from '../../../apps/payments/src/card/instrument';
import { StripeDouble } from '../../support/connectors/stripe/stripe-double';

/** Every operation of the Stripe connector against the StripeDouble (stripe-recovery.spec.ts: failures, webhooks). */
const double = new StripeDouble();
let connection: ConnectorConnection;
const connector = () => double.connector();

const card = (cardNumber = '4111111111111111'): ResolvedCard => ({
  source: 'cardData',
  cardNumber,
  expiryMonth: '12',
  expiryYear: '2030',
  cvv: '123',
  cardholderName: 'Jane Doe',
  brand: 'visa',
  type: 'credit',
  tokenize: false,
});

const authorization = (overrides: Partial<AuthorizationRequest> = {}): AuthorizationRequest => ({
  paymentId: randomUUID(),
  at: new Date(),
  reference: `res_${randomUUID()}`,
  amount: { currency: 'EUR', value: 1000, exponent: 2 },
  capture: true,
  paymentMethod: 'card',
  card: card(),
  initiator: 'cardholder',
  returnUrl: 'https://gateway.example/return/abc',
  ...overrides,
});

const modification = (acquirerReference: string, value: number, reason?: string): ModificationRequest => ({
  paymentId: randomUUID(),
  reference: `op_${randomUUID()}`,
  acquirerReference,
  amount: { currency: 'EUR', value, exponent: 2 },
  ...(reason ? { reason } : {}),
});

/** The requests the double took for one Idempotency-Key prefix. */
const sent = (reference: string) => double.requests.filter((r) => r.idempotencyKey?.startsWith(reference));

async function approved(overrides: Partial<AuthorizationRequest> = {}) {
  const outcome = await connector().authorize(connection, authorization(overrides));
  if (outcome.kind !== 'approved') throw new Error(`expected approval, got ${JSON.stringify(outcome)}`);
  return outcome;
}

beforeAll(async () => {
  await double.start();
  connection = double.connection('sandbox');
});
afterAll(() => double.stop());
afterEach(() => expect(double.takeViolations()).toEqual([]));

describe('authorizations', () => {
  it('purchases: a card PaymentMethod, then a PaymentIntent confirmed with automatic capture, our reference as the Idempotency-Key', async () => {
    const request = authorization();
    const outcome = await connector().authorize(connection, request);
    expect(outcome).toMatchObject({ kind: 'approved', acquirerReference: expect.stringMatching(/^pi_/) });
    if (outcome.kind !== 'approved') return;
    expect(outcome.authorizationCode).toMatch(/^\d{6}$/);
    expect(outcome.networkTransactionId).toMatch(/^\d{15}$/);
    expect(outcome.threeDs).toBeUndefined();
    const [method, intent] = sent(request.reference);
    expect(method).toMatchObject({
      path: '/v1/payment_methods',
      idempotencyKey: `${request.reference}:payment_method`,
    });
    expect(method.params.card).toEqual({ number: '411111…1111', exp_month: '12', exp_year: '2030', cvc: '***' });
    expect(intent).toMatchObject({ path: '/v1/payment_intents', idempotencyKey: request.reference });
    expect(intent.params).toMatchObject({
      amount: '1000',
      currency: 'eur',
      confirm: 'true',
      capture_method: 'automatic',
      return_url: request.returnUrl,
      metadata: { reference: request.reference, paymentId: request.paymentId },
    });
    await expect(
      connector().sync(connection, { acquirerReference: outcome.acquirerReference, reference: request.reference }),
    ).resolves.toEqual({ kind: 'captured' });
  });

  it('authorizes with manual capture, then captures part of it once (no multicapture)', async () => {
    const outcome = await approved({ capture: false });
    const ref = { acquirerReference: outcome.acquirerReference, reference: 'x' };
    expect(connector().capabilities.multipleCaptures).toBe(false);
    await expect(connector().sync(connection, ref)).resolves.toEqual({ kind: 'authorized' });
    const capture = modification(outcome.acquirerReference, 600);
    await expect(connector().capture(connection, capture)).resolves.toEqual({
      kind: 'succeeded',
      providerReference: expect.stringMatching(/^ch_/),
    });
    expect(sent(capture.reference)[0].params).toMatchObject({ amount_to_capture: '600' });
    await expect(connector().sync(connection, ref)).resolves.toEqual({ kind: 'captured' });
    await expect(connector().capture(connection, modification(outcome.acquirerReference, 400))).resolves.toMatchObject({
      kind: 'failed',
    });
  });

  it('charges yen in whole yen, krónur in two decimals as Stripe keeps them, and refuses a KWD amount Stripe cannot take before sending it', async () => {
    const request = authorization({ amount: { currency: 'JPY', value: 5000, exponent: 0 } });
    await expect(connector().authorize(connection, request)).resolves.toMatchObject({ kind: 'approved' });
    expect(sent(request.reference)[1].params).toMatchObject({ amount: '5000', currency: 'jpy' });
    const isk = authorization({ amount: { currency: 'ISK', value: 150, exponent: 0 } });
    await expect(connector().authorize(connection, isk)).resolves.toMatchObject({ kind: 'approved' });
    expect(sent(isk.reference)[1].params).toMatchObject({ amount: '15000', currency: 'isk' });
    const kwd = authorization({ amount: { currency: 'KWD', value: 1005, exponent: 3 } });
    await expect(connector().authorize(connection, kwd)).resolves.toMatchObject({ kind: 'failed' });
    expect(sent(kwd.reference)).toEqual([]);
  });
});

describe('refunds and cancels', () => {
  it('refunds part of a purchase twice, then refuses more than is left', async () => {
    const outcome = await approved();
    const first = modification(outcome.acquirerReference, 300, 'requested_by_customer');
    const second = modification(outcome.acquirerReference, 200, 'arrived damaged');
    const a = await connector().refund(connection, first);
    const b = await connector().refund(connection, second);
    expect(a).toEqual({ kind: 'succeeded', providerReference: expect.stringMatching(/^re_/) });
    expect(b).toEqual({ kind: 'succeeded', providerReference: expect.stringMatching(/^re_/) });
    expect(a.providerReference).not.toBe(b.providerReference);
    expect(sent(first.reference)[0].params).toMatchObject({ amount: '300', reason: 'requested_by_customer' });
    expect(sent(second.reference)[0].params.reason).toBeUndefined();
    expect(sent(second.reference)[0].params.metadata).toMatchObject({ reason: 'arrived damaged' });
    const tooMuch = await connector().refund(connection, modification(outcome.acquirerReference, 600));
    expect(tooMuch).toMatchObject({ kind: 'failed' });
    await expect(connector().refund(connection, modification(outcome.acquirerReference, 500))).resolves.toMatchObject({
      kind: 'succeeded',
    });
    await expect(
      connector().sync(connection, { acquirerReference: outcome.acquirerReference, reference: 'x' }),
    ).resolves.toEqual({ kind: 'refunded' });
  });

  it('cancels an authorization; a captured payment is not cancelled', async () => {
    const held = await approved({ capture: false });
    await expect(connector().cancel(connection, modification(held.acquirerReference, 1000))).resolves.toEqual({
      kind: 'succeeded',
      providerReference: held.acquirerReference,
    });
    await expect(
      connector().sync(connection, { acquirerReference: held.acquirerReference, reference: 'x' }),
    ).resolves.toEqual({ kind: 'cancelled' });
    const paid = await approved();
    await expect(connector().cancel(connection, modification(paid.acquirerReference, 1000))).resolves.toMatchObject({
      kind: 'failed',
    });
  });
});

describe('declines', () => {
  it.each([
    ['4000000000000002', '5', 'retry'],
    ['4000000000009995', '51', 'switch_method'],
  ])('declines test card %s as %s (%s)', async (number, reasonCode, recoveryAction) => {
    const outcome = await connector().authorize(connection, authorization({ card: card(number) }));
    expect(outcome).toMatchObject({
      kind: 'declined',
      acquirerReference: expect.stringMatching(/^pi_/),
      refusalCode: { reasonCode, recoveryAction },
    });
  });

  const rows = Object.entries(STRIPE_DECLINES).filter(([code]) => code !== 'payment_intent_authentication_failure');
  it.each(rows)('maps decline_code %s', async (code, [reasonCode, reason, recoveryAction]) => {
    if (code === 'card_declined') double.ledger.declineNext(undefined);
    else double.ledger.declineNext(code);
    const outcome = await connector().authorize(connection, authorization());
    expect(outcome).toMatchObject({
      kind: 'declined',
      refusalCode: {
        reasonCode,
        reason,
        recoveryAction,
        originalReasonCode: code,
        originalReason: expect.stringContaining(code),
      },
    });
  });

  it('docs/connectors-stripe.md prints every row of the table', () => {
    const doc = readFileSync(join(__dirname, '../../../docs/connectors-stripe.md'), 'utf8');
    const printed = doc
      .split('\n')
      .filter((line) => /^\| `[a-z_]+` +\| \w+ /.test(line))
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim().replace(/`/g, '')),
      );
    expect(printed).toEqual(Object.entries(STRIPE_DECLINES).map(([code, row]) => [code, ...row]));
  });

  it("gives a code Stripe adds later a retryable do-not-honor, keeping Stripe's code", async () => {
    double.ledger.declineNext('brand_new_code');
    await expect(connector().authorize(connection, authorization())).resolves.toMatchObject({
      refusalCode: { reasonCode: '5', recoveryAction: 'retry', originalReasonCode: 'brand_new_code' },
    });
  });
});

describe('3DS', () => {
  it('sends the shopper to next_action.redirect_to_url, then reads the PaymentIntent the return URL names', async () => {
    const request = authorization({ card: card('4000002500003155') });
    const outcome = await connector().authorize(connection, request);
    expect(outcome).toEqual({
      kind: 'challenge_required',
      acquirerReference: expect.stringMatching(/^pi_/),
      action: { type: 'redirect', method: 'GET', url: expect.stringContaining(double.origin()) },
    });
    const details = await double.passChallenge(outcome.acquirerReference!, true);
    expect(details.payment_intent).toBe(outcome.acquirerReference);
    const done = await connector().completeChallenge(connection, {
      reference: `3ds_${randomUUID()}`,
      acquirerReference: outcome.acquirerReference!,
      authenticated: true,
      details,
      capture: true,
      amount: request.amount,
    });
    expect(done).toMatchObject({ kind: 'approved', threeDs: { flow: 'challenge', eci: '05', version: '2.2.0' } });
    expect(double.chargesFor(request.reference)).toBe(1);
  });

  it('a failed challenge is declined Q1 (payment_intent_authentication_failure)', async () => {
    const request = authorization({ card: card('4000002500003155') });
    const outcome = await connector().authorize(connection, request);
    const details = await double.passChallenge(outcome.acquirerReference!, false);
    const done = await connector().completeChallenge(connection, {
      reference: `3ds_${randomUUID()}`,
      acquirerReference: outcome.acquirerReference!,
      authenticated: false,
      details,
      capture: true,
      amount: request.amount,
    });
    const [reasonCode, , recoveryAction] = STRIPE_DECLINES.payment_intent_authentication_failure;
    expect(done).toMatchObject({
      kind: 'declined',
      refusalCode: { reasonCode, recoveryAction, originalReasonCode: 'payment_intent_authentication_failure' },
    });
  });

  it('reports a frictionless authentication on the approval', async () => {
    await expect(approved({ card: card('4000003220000000') })).resolves.toMatchObject({
      threeDs: { flow: 'frictionless', eci: '05', version: '2.2.0' },
    });
  });
});

describe('merchant-initiated charges', () => {
  it('cites the original network transaction id off-session, without a return URL', async () => {
    const request = authorization({ initiator: 'merchant', networkTransactionId: '583920174650231' });
    await expect(connector().authorize(connection, request)).resolves.toMatchObject({ kind: 'approved' });
    const params = sent(request.reference)[1].params;
    expect(params).toMatchObject({
      off_session: 'true',
      confirm: 'true',
      payment_method_options: { card: { mit_exemption: { network_transaction_id: '583920174650231' } } },
    });
    expect(params.return_url).toBeUndefined();
  });

  it('charges a card stored at Stripe by its pm_ id (Stripe keeps its network id)', async () => {
    const pm = double.ledger.storedMethod('4111111111111111');
    const request = authorization({
      initiator: 'merchant',
      providerPaymentMethodId: pm,
      networkTransactionId: '1',
      card: undefined,
    });
    await expect(connector().authorize(connection, request)).resolves.toMatchObject({ kind: 'approved' });
    const requests = sent(request.reference);
    expect(requests).toHaveLength(1);
    expect(requests[0].params).toMatchObject({ payment_method: pm, off_session: 'true' });
    expect(requests[0].params.payment_method_options).toBeUndefined();
  });

  it('a card that wants authentication is declined 1A off-session', async () => {
    const request = authorization({ initiator: 'merchant', card: card('4000002500003155') });
    await expect(connector().authorize(connection, request)).resolves.toMatchObject({
      kind: 'declined',
      refusalCode: { reasonCode: '1A', originalReasonCode: 'authentication_required' },
    });
  });
});
