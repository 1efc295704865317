import { randomUUID } from 'node:crypto';
import {
  WebhookRejected,
  type ConnectorConnection,
  type ProviderConnector,
} from '../../../apps/payments/src/connector/provider-connector';
import { AdyenDouble } from '../../support/connectors/adyen/adyen-double';
import { approved, card, EUR, request } from '../../support/connectors/adyen/adyen-requests';

describe('Adyen webhooks', () => {
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

  it('verifies the HMAC signature and maps an AUTHORISATION; a redelivery has the same eventId', async () => {
    const r = request();
    const outcome = approved(await connector.authorize(sandbox, r));
    const webhook = double.webhook('authorisation', outcome.acquirerReference);
    const [n] = connector.parseWebhook(sandbox, webhook.rawBody, webhook.headers);
    expect(n).toEqual({
      eventId: `AUTHORISATION:${outcome.acquirerReference}:true:`,
      kind: 'authorisation',
      success: true,
      acquirerReference: outcome.acquirerReference,
      merchantReference: r.reference,
      amount: EUR(1000),
      occurredAt: expect.any(Date),
      providerEvent: 'AUTHORISATION',
    });
    const again = double.webhook('authorisation', outcome.acquirerReference);
    expect(connector.parseWebhook(sandbox, again.rawBody, again.headers)[0].eventId).toBe(n.eventId);
    expect(connector.webhookAcknowledgement).toEqual({ status: 200, contentType: 'text/plain', body: '[accepted]' });
  });

  it('rejects a notification whose signed fields were changed, or signed with another key', async () => {
    const outcome = approved(await connector.authorize(sandbox, request()));
    const webhook = double.webhook('refund', outcome.acquirerReference, { amountValue: 100 });
    const tampered = Buffer.from(webhook.rawBody.toString().replace('"value":100', '"value":99900'));
    expect(() => connector.parseWebhook(sandbox, tampered, webhook.headers)).toThrow(WebhookRejected);
    const otherKey = { ...sandbox, credentials: { ...sandbox.credentials, hmacKey: 'ab'.repeat(32) } };
    expect(() => connector.parseWebhook(otherKey, webhook.rawBody, webhook.headers)).toThrow(WebhookRejected);
    const unsigned = Buffer.from(webhook.rawBody.toString().replace(/"hmacSignature":"[^"]+"/, '"x":"y"'));
    expect(() => connector.parseWebhook(sandbox, unsigned, webhook.headers)).toThrow(WebhookRejected);
    expect(() => connector.parseWebhook(sandbox, Buffer.from('not json'), webhook.headers)).toThrow(WebhookRejected);
  });

  it('maps a refused AUTHORISATION with its refusal, failures of captures and refunds, and chargebacks', async () => {
    const refused = await connector.authorize(sandbox, request({ card: card('4000000000009995') }));
    const failedAuth = double.webhook('authorisation', refused.acquirerReference!);
    expect(connector.parseWebhook(sandbox, failedAuth.rawBody, failedAuth.headers)[0]).toMatchObject({
      kind: 'authorisation',
      success: false,
      reason: 'Not enough balance',
      refusalCode: { reasonCode: '51', recoveryAction: 'switch_method' },
    });
    const auth = approved(await connector.authorize(sandbox, request({ capture: false })));
    await connector.capture(sandbox, {
      paymentId: randomUUID(),
      reference: `cap_${randomUUID()}`,
      acquirerReference: auth.acquirerReference,
      amount: EUR(1000),
    });
    const kinds = ['capture_failed', 'refund_failed', 'chargeback', 'chargeback_reversed'] as const;
    for (const kind of kinds) {
      const webhook = double.webhook(kind, auth.acquirerReference, { success: kind === 'chargeback' });
      const [n] = connector.parseWebhook(sandbox, webhook.rawBody, webhook.headers);
      expect(n).toMatchObject({ kind, acquirerReference: auth.acquirerReference });
      expect(n.modificationReference).toMatch(/^[A-Z0-9]{16}$/);
    }
  });

  it('builds every kind of notification valid against Webhooks-v1.json, and reads each back as that kind', async () => {
    const auth = approved(await connector.authorize(sandbox, request()));
    const kinds = [
      'authorisation',
      'capture',
      'capture_failed',
      'refund',
      'refund_failed',
      'cancellation',
      'chargeback',
      'chargeback_reversed',
      'other',
    ] as const;
    for (const kind of kinds) {
      const webhook = double.webhook(kind, auth.acquirerReference);
      expect(connector.parseWebhook(sandbox, webhook.rawBody, webhook.headers)[0].kind).toBe(kind);
    }
  });

  it('rejects an item without a valid eventDate even when signed', async () => {
    const auth = approved(await connector.authorize(sandbox, request()));
    const webhook = double.webhook('capture', auth.acquirerReference);
    const body = webhook.rawBody.toString().replace(/"eventDate":"[^"]+"/, '"eventDate":"yesterday"');
    expect(() => connector.parseWebhook(sandbox, Buffer.from(body), webhook.headers)).toThrow(WebhookRejected);
  });
});
