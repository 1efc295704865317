import { randomUUID } from 'node:crypto';
import {
  AuthorizationOutcome,
  AuthorizationRequest,
  ConnectorConnection,
  ConnectorOutcomeUnknown,
  ModificationOutcome,
  ProviderConnector,
  WebhookRejected,
} from '../../../apps/payments/src/connector/provider-connector';
import { usd } from '../../support/amounts';
import { ConnectorDouble } from '../../support/connectors/connector-double';

const APPROVED = '4111111111111111';
const DECLINED_RETRY = '4000000000000002';
const DECLINED_FUNDS = '4000000000009995';
const FRICTIONLESS = '4000003220000000';
const CHALLENGE = '4000002500003155';

const reference = () => `rq_conf_${randomUUID().replace(/-/g, '')}`;

function request(cardNumber: string, over: Partial<AuthorizationRequest> = {}): AuthorizationRequest {
  return {
    paymentId: randomUUID(),
    at: new Date(),
    reference: reference(),
    amount: usd(1000),
    capture: true,
    paymentMethod: 'card',
    initiator: 'cardholder',
    card: {
      source: 'cardData',
      cardNumber,
      expiryMonth: '03',
      expiryYear: '2030',
      cvv: '737',
      cardholderName: 'Conformance Shopper',
      brand: 'visa',
      type: 'credit',
      tokenize: false,
    },
    returnUrl: 'https://gateway.example/v1/payment/return/conformance',
    shopperReference: 'shopper-conformance',
    ...over,
  };
}

type Approved = Extract<AuthorizationOutcome, { kind: 'approved' }>;

function approved(o: AuthorizationOutcome): Approved {
  expect(o).toMatchObject({ kind: 'approved', acquirerReference: expect.any(String) });
  return o as Approved;
}

/** A modification is done now or accepted for the provider's webhook; never failed in these scenarios. */
function accepted(o: ModificationOutcome): void {
  expect(['succeeded', 'pending']).toContain(o.kind);
}

/**
 * The same scenarios for every connector, at the connector level (no stack): each connector's spec calls it
 * with its double, e.g. `runConformance(() => new AdyenDouble())`. Every test ends with the double's
 * violations empty: no request the provider's document rejects, no answer shaped otherwise.
 */
export function runConformance(double: () => ConnectorDouble): void {
  let d: ConnectorDouble;
  let connector: ProviderConnector;
  let connection: ConnectorConnection;

  beforeAll(async () => {
    d = double();
    await d.start();
    connector = d.connector();
    connection = d.connection('sandbox');
  });

  afterAll(() => d.stop());

  afterEach(() => expect(d.violations()).toEqual([]));

  const authorize = (r: AuthorizationRequest) => connector.authorize(connection, r);
  const modification = (a: Approved, value: number) => ({
    paymentId: randomUUID(),
    reference: reference(),
    acquirerReference: a.acquirerReference,
    amount: usd(value),
  });

  it('serves its acquirer with declared capabilities and a 2xx webhook acknowledgement', () => {
    expect(connector.acquirer).toBe(d.acquirer);
    expect(typeof connector.capabilities.multipleCaptures).toBe('boolean');
    expect(typeof connector.capabilities.statusSync).toBe('boolean');
    expect(connector.webhookAcknowledgement.status).toBeGreaterThanOrEqual(200);
    expect(connector.webhookAcknowledgement.status).toBeLessThan(300);
  });

  it('approves a purchase with the references a merchant needs', async () => {
    const a = approved(await authorize(request(APPROVED)));
    expect(a.acquirerReference).not.toBe('');
    expect(a.networkTransactionId).toEqual(expect.any(String));
  });

  it('captures an authorization partially, and again where the provider allows more than one capture', async () => {
    const a = approved(await authorize(request(APPROVED, { capture: false })));
    accepted(await connector.capture(connection, modification(a, 600)));
    if (connector.capabilities.multipleCaptures) {
      accepted(await connector.capture(connection, modification(a, 400)));
    }
  });

  it('refunds part of a purchase, then the rest', async () => {
    const a = approved(await authorize(request(APPROVED)));
    accepted(await connector.refund(connection, modification(a, 300)));
    accepted(await connector.refund(connection, modification(a, 700)));
  });

  it('cancels an authorization', async () => {
    const a = approved(await authorize(request(APPROVED, { capture: false })));
    accepted(await connector.cancel(connection, modification(a, 1000)));
  });

  it('maps declines to our refusal codes and recovery actions', async () => {
    expect(await authorize(request(DECLINED_RETRY))).toMatchObject({
      kind: 'declined',
      refusalCode: { reasonCode: '5', recoveryAction: 'retry' },
    });
    expect(await authorize(request(DECLINED_FUNDS))).toMatchObject({
      kind: 'declined',
      refusalCode: { reasonCode: '51', recoveryAction: 'switch_method' },
    });
  });

  describe('3-D Secure', () => {
    const challenged = async () => {
      const r = request(CHALLENGE);
      const o = await authorize(r);
      expect(o).toMatchObject({ kind: 'challenge_required', acquirerReference: expect.any(String) });
      return { r, acquirerReference: o.acquirerReference! };
    };
    const complete = async (acquirerReference: string, details: Record<string, string>) =>
      connector.completeChallenge(connection, {
        reference: reference(),
        acquirerReference,
        authenticated: true,
        details,
        capture: true,
        amount: usd(1000),
      });

    it('approves after a passed challenge, with the challenge flow recorded', async () => {
      const { acquirerReference } = await challenged();
      const a = approved(await complete(acquirerReference, await d.passChallenge(acquirerReference, true)));
      if (a.threeDs) expect(a.threeDs.flow).toBe('challenge');
    });

    it('declines after a failed challenge', async () => {
      const { acquirerReference } = await challenged();
      expect(await complete(acquirerReference, await d.passChallenge(acquirerReference, false))).toMatchObject({
        kind: 'declined',
        refusalCode: { recoveryAction: expect.any(String) },
      });
    });

    it('records a frictionless authentication on the approval', async () => {
      const a = approved(await authorize(request(FRICTIONLESS)));
      expect(a.threeDs).toMatchObject({ flow: 'frictionless' });
    });
  });

  it('charges a stored card merchant-initiated, citing the original network transaction id', async () => {
    const first = approved(await authorize(request(APPROVED, { shopperReference: 'shopper-mit' })));
    const mit = await authorize(
      request(APPROVED, {
        initiator: 'merchant',
        networkTransactionId: first.networkTransactionId,
        shopperReference: 'shopper-mit',
      }),
    );
    approved(mit);
  });

  it('syncs a payment by its references', async () => {
    const r = request(APPROVED);
    const a = approved(await authorize(r));
    const synced = await connector.sync(connection, { acquirerReference: a.acquirerReference, reference: r.reference });
    if (connector.capabilities.statusSync) {
      expect(['approved', 'captured']).toContain(synced?.kind);
    } else {
      expect(synced).toBeUndefined();
    }
  });

  describe('inbound webhooks', () => {
    it('verifies and parses a signed notification about a known payment', async () => {
      const a = approved(await authorize(request(APPROVED)));
      const { rawBody, headers } = d.webhook('refund', a.acquirerReference, { amountValue: 300 });
      const [n] = connector.parseWebhook(connection, rawBody, headers);
      expect(n).toMatchObject({
        eventId: expect.any(String),
        kind: 'refund',
        success: true,
        acquirerReference: a.acquirerReference,
        amount: { value: 300 },
      });
      expect(n.occurredAt).toBeInstanceOf(Date);
    });

    it('rejects a notification whose signature does not verify', async () => {
      const a = approved(await authorize(request(APPROVED)));
      const { rawBody, headers } = d.webhook('capture', a.acquirerReference, { amountValue: 1000 });
      // The amount is signed by every provider's scheme (Adyen signs chosen fields, Stripe the whole body).
      const tampered = Buffer.from(rawBody.toString('utf8').replace('1000', '1001'));
      expect(tampered.equals(rawBody)).toBe(false);
      expect(() => connector.parseWebhook(connection, tampered, headers)).toThrow(WebhookRejected);
      const other = d.connection('sandbox', 'other');
      const unsigned = {
        ...other,
        credentials: { ...other.credentials, hmacKey: 'AA'.repeat(32), webhookSecret: 'whsec_x' },
      };
      expect(() => connector.parseWebhook(unsigned, rawBody, headers)).toThrow(WebhookRejected);
    });

    it('gives one event the same id however often it is delivered (the caller de-duplicates on it)', async () => {
      const a = approved(await authorize(request(APPROVED)));
      const delivery = d.webhook('capture', a.acquirerReference, { amountValue: 1000 });
      const first = connector.parseWebhook(connection, delivery.rawBody, delivery.headers);
      const again = connector.parseWebhook(connection, delivery.rawBody, delivery.headers);
      expect(first).toHaveLength(1);
      expect(again.map((n) => n.eventId)).toEqual(first.map((n) => n.eventId));
      expect(first[0]).toMatchObject({ kind: 'capture', success: true, acquirerReference: a.acquirerReference });
    });

    it('parses an asynchronous capture failure where the provider sends one', async () => {
      const a = approved(await authorize(request(APPROVED, { capture: false })));
      if (!d.sends('capture_failed')) {
        // e.g. Stripe answers a failed capture in the capture call itself: its double cannot make such an event
        expect(() => d.webhook('capture_failed', a.acquirerReference, { success: false })).toThrow();
        return;
      }
      const delivery = d.webhook('capture_failed', a.acquirerReference, { success: false, amountValue: 1000 });
      const [n] = connector.parseWebhook(connection, delivery.rawBody, delivery.headers);
      expect(n).toMatchObject({ kind: 'capture_failed', acquirerReference: a.acquirerReference });
    });
  });

  it('never charges twice when the answer is lost after the charge: sync or a retry with the same reference', async () => {
    const r = request(APPROVED);
    d.dropAnswerAfterNextCharge();
    await expect(authorize(r)).rejects.toBeInstanceOf(ConnectorOutcomeUnknown);
    expect(d.chargesFor(r.reference)).toBe(1);
    if (connector.capabilities.statusSync) {
      const synced = await connector.sync(connection, { reference: r.reference });
      expect(['approved', 'captured']).toContain(synced?.kind);
    }
    const retried = approved(await authorize(r));
    expect(retried.acquirerReference).not.toBe('');
    expect(d.chargesFor(r.reference)).toBe(1);
  });
}
