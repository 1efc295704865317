import { PaymentEntity } from '../payment/payment.entity';
import { applyOutcome } from '../payment/payment-outcome';
import { AuthorizationOutcome, AuthorizationRequest, ConnectorConnection } from './provider-connector';
import { SANDBOX_CARDS } from './sandbox-cards';
import { SandboxAcquirerConnector } from './sandbox-acquirer.connector';
import { MemoryLedger } from './sandbox-ledger';

const sandbox = new SandboxAcquirerConnector();
const on = (connectionCode = 'sandbox'): ConnectorConnection => ({
  connectionCode,
  merchantCode: 'M1',
  environment: 'sandbox',
  credentials: {},
});
/** The simulator through the default connection, or through the request's own `connectionCode`. */
const acquirer = {
  authorize: ({ connectionCode, ...r }: AuthorizationRequest & { connectionCode?: string }) =>
    sandbox.authorize(on(connectionCode), r),
  completeChallenge: (r: Parameters<SandboxAcquirerConnector['completeChallenge']>[1]) =>
    sandbox.completeChallenge(on(), r),
  capture: (r: Parameters<SandboxAcquirerConnector['capture']>[1]) => sandbox.capture(on(), r),
  refund: (r: Parameters<SandboxAcquirerConnector['refund']>[1]) => sandbox.refund(on(), r),
  cancel: (r: Parameters<SandboxAcquirerConnector['cancel']>[1]) => sandbox.cancel(on(), r),
  sync: (reference: string) => sandbox.sync(on(), { reference }),
};
let n = 0;
const request = (
  cardNumber: string,
  initiator: 'cardholder' | 'merchant' = 'cardholder',
  connectionCode = 'sandbox',
): AuthorizationRequest & { connectionCode: string } => ({
  paymentId: 'p1',
  connectionCode,
  reference: `rq_test_${++n}`,
  amount: { currency: 'USD', value: 1000, exponent: 2 },
  capture: true,
  paymentMethod: 'card',
  initiator,
  at: new Date('2030-06-15T00:00:00Z'),
  card: {
    source: 'cardData',
    cardNumber,
    expiryMonth: '12',
    expiryYear: '2035',
    brand: 'visa',
    type: 'credit',
    tokenize: false,
  },
});

describe('sandbox acquirer', () => {
  it('knows every sandbox test card', () => {
    expect(Object.keys(SANDBOX_CARDS).sort()).toEqual(
      [
        '4000000000000002',
        '4000000000009995',
        '4000000000000069',
        '4000000000000127',
        '4000000000009235',
        '4000000000001341',
        '4000000000000119',
        '4000003220000000',
        '4000002500003155',
        '4000000000003055',
        '4000000000000341',
        '4000000000004954',
        '4000000000004103',
        '4000000000000200',
        '4000000000004202',
        '4000000000004301',
        '4000000000004400',
        '4000000000004509',
        '4000000000000309',
        '4000000000000317',
        '4000000000000325',
      ].sort(),
    );
  });

  it('approves any other card with an authorization code and network ids', async () => {
    const outcome = await acquirer.authorize(request('5500005555555559'));
    expect(outcome).toMatchObject({ kind: 'approved', authorizationCode: expect.stringMatching(/^[A-Z0-9]{6}$/) });
  });

  it('declines merchant-initiated charges of the MIT-decline cards only', async () => {
    expect((await acquirer.authorize(request('4000000000000341'))).kind).toBe('approved');
    expect(await acquirer.authorize(request('4000000000000341', 'merchant'))).toMatchObject({
      kind: 'declined',
      refusalCode: { reasonCode: '51', recoveryAction: 'switch_method' },
    });
    expect(await acquirer.authorize(request('4000000000004954', 'merchant'))).toMatchObject({
      refusalCode: { reasonCode: '59', recoveryAction: 'terminal' },
    });
  });

  it('declines the cascade card as retry on any connection but the default one, which approves it', async () => {
    expect(await acquirer.authorize(request('4000000000000200', 'merchant', 'primary'))).toMatchObject({
      kind: 'declined',
      refusalCode: { reasonCode: '5', recoveryAction: 'retry' },
    });
    expect((await acquirer.authorize(request('4000000000000200', 'merchant', 'sandbox'))).kind).toBe('approved');
  });

  it('approves the operation-failure cards, then fails only their own operation (processing error)', async () => {
    const cases = [
      ['4000000000000309', 'capture'],
      ['4000000000000317', 'refund'],
      ['4000000000000325', 'cancel'],
    ] as const;
    for (const [card, failing] of cases) {
      const auth = await acquirer.authorize(request(card));
      expect(auth.kind).toBe('approved');
      for (const op of ['capture', 'refund', 'cancel'] as const) {
        const answer = await acquirer[op]({
          paymentId: 'p1',
          reference: `rq_test_${++n}`,
          acquirerReference: (auth as { acquirerReference: string }).acquirerReference,
          amount: { currency: 'USD', value: 1000, exponent: 2 },
        });
        expect(answer).toEqual(
          op === failing
            ? { kind: 'failed', message: 'Processing error', providerReference: expect.any(String) }
            : { kind: 'succeeded', providerReference: expect.any(String) },
        );
        // Its status sync says the same: the payment's status after it, or the failure.
        expect(await acquirer.sync(`rq_test_${n}`)).toMatchObject(
          op === failing
            ? { kind: 'failed' }
            : { kind: { capture: 'captured', refund: 'refunded', cancel: 'cancelled' }[op] },
        );
      }
    }
  });

  it('completes a challenge: approved unless it failed or the card always fails it (Q1)', async () => {
    const passes = await acquirer.authorize(request('4000002500003155'));
    const fails = await acquirer.authorize(request('4000000000003055'));
    expect([passes.kind, fails.kind]).toEqual(['challenge_required', 'challenge_required']);
    const ref = (o: AuthorizationOutcome) => (o as { acquirerReference: string }).acquirerReference;
    const amount = { currency: 'USD', value: 1, exponent: 2 };
    const complete = (o: AuthorizationOutcome, authenticated: boolean) =>
      acquirer.completeChallenge({
        reference: `rq_complete_${++n}`,
        acquirerReference: ref(o),
        authenticated,
        capture: true,
        amount,
      });
    expect((await complete(passes, true)).kind).toBe('approved');
    expect(await complete(passes, false)).toMatchObject({ refusalCode: { reasonCode: 'Q1' } });
    expect(await complete(fails, true)).toMatchObject({ refusalCode: { reasonCode: 'Q1' } });
  });

  it('declines a card past its expiry month as of the charge, 54 Expired card; good through its last day', async () => {
    const card = (expiryMonth: string, expiryYear: string) => ({ ...request(VISA_OK).card!, expiryMonth, expiryYear });
    const at = (iso: string, expiryMonth: string, expiryYear: string) =>
      acquirer.authorize({ ...request(VISA_OK, 'merchant'), card: card(expiryMonth, expiryYear), at: new Date(iso) });
    expect(await at('2030-06-01T00:00:00Z', '05', '2030')).toMatchObject({
      kind: 'declined',
      refusalCode: { reasonCode: '54', reason: 'Expired card', recoveryAction: 'switch_method' },
    });
    expect((await at('2030-05-31T23:59:59Z', '05', '2030')).kind).toBe('approved');
    expect((await at('2031-01-01T00:00:00Z', '12', '2030')).kind).toBe('declined');
  });

  it('answers the 3DS result of the frictionless card and of a passed challenge; none for a plain approval', async () => {
    expect(await acquirer.authorize(request('4000003220000000'))).toMatchObject({
      kind: 'approved',
      threeDs: { flow: 'frictionless', eci: '05', version: '2.2.0' },
    });
    expect(await acquirer.authorize(request(VISA_OK))).not.toHaveProperty('threeDs');
    expect(await acquirer.authorize(request('4000003220000000', 'merchant'))).not.toHaveProperty('threeDs');
    const challenged = await acquirer.authorize(request('4000002500003155'));
    const done = await acquirer.completeChallenge({
      reference: `rq_complete_${++n}`,
      acquirerReference: (challenged as { acquirerReference: string }).acquirerReference,
      authenticated: true,
      capture: true,
      amount: { currency: 'USD', value: 1, exponent: 2 },
    });
    expect(done).toMatchObject({ kind: 'approved', threeDs: { flow: 'challenge', eci: '05' } });
  });

  it('maps every outcome kind to a status through the transition table', async () => {
    const statusOf = (outcome: AuthorizationOutcome, intent: 'purchase' | 'authorization' = 'purchase') => {
      const p = Object.assign(new PaymentEntity(), { intent, amountValue: 1000, card: null, status: 'reserved' });
      applyOutcome(p, outcome, new Date('2030-01-01T00:00:00Z'), 7);
      return p;
    };
    const approved = await acquirer.authorize(request(VISA_OK));
    expect(statusOf(approved).status).toBe('captured');
    const held = statusOf(approved, 'authorization');
    expect(held.status).toBe('authorized');
    expect(held.holdExpiresAt?.toISOString()).toBe('2030-01-08T00:00:00.000Z');
    expect(statusOf(await acquirer.authorize(request('4000000000000002'))).status).toBe('declined');
    expect(statusOf(await acquirer.authorize(request('4000000000000119'))).status).toBe('failed');
    expect(statusOf(await acquirer.authorize(request('4000002500003155'))).status).toBe('pending_3ds');
    expect(
      statusOf(await acquirer.authorize({ ...request(VISA_OK), paymentMethod: 'pix', card: undefined })).status,
    ).toBe('pending_action');
  });
});

const VISA_OK = '4111111111111111';

describe('sandbox acquirer request references', () => {
  it('answers a repeated request reference with its first answer, and a new reference afresh', async () => {
    const first = await acquirer.authorize({ ...request(VISA_OK), reference: 'rq_same' });
    const again = await acquirer.authorize({ ...request(VISA_OK), reference: 'rq_same' });
    const other = await acquirer.authorize({ ...request(VISA_OK), reference: 'rq_other' });
    expect(first.kind).toBe('approved');
    expect(again).toEqual(first);
    expect(other.acquirerReference).not.toBe(first.acquirerReference);
  });

  it('syncs a reference: what it answered, or nothing when it never saw it', async () => {
    const first = await acquirer.authorize({ ...request(VISA_OK), reference: 'rq_looked_up' });
    expect(await acquirer.sync('rq_looked_up')).toEqual(first);
    expect(await acquirer.sync('rq_never_sent')).toBeUndefined();
  });

  it('records the 3-D Secure result of a frictionless approval and of a passed challenge', async () => {
    expect(await acquirer.authorize(request('4000003220000000'))).toMatchObject({
      kind: 'approved',
      threeDs: { flow: 'frictionless', eci: '05', version: '2.2.0' },
    });
    expect((await acquirer.authorize(request(VISA_OK))).kind === 'approved').toBe(true);
    expect(await acquirer.authorize(request(VISA_OK))).not.toHaveProperty('threeDs');
  });
});

describe('sandbox acquirer latency', () => {
  it('answers every call after SANDBOX_ACQUIRER_LATENCY_MS', async () => {
    const slow = new SandboxAcquirerConnector(new MemoryLedger(), 60);
    const started = Date.now();
    const modification = {
      paymentId: 'p1',
      reference: 'rq_slow',
      acquirerReference: 'sbx_1',
      amount: request(VISA_OK).amount,
    };
    await Promise.all([slow.authorize(on(), request(VISA_OK)), slow.refund(on(), modification)]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    const fast = Date.now();
    await acquirer.authorize(request(VISA_OK));
    expect(Date.now() - fast).toBeLessThan(55);
  });
});
