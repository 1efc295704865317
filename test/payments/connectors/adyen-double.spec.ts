import { randomUUID } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { AdyenDouble } from '../../support/connectors/adyen/adyen-double';
import { checkoutResponseProblems, webhookProblems } from '../../support/connectors/adyen/adyen-document';
import { selfSignedCert } from '../../support/webhook-receiver';

describe('The Adyen double holds requests to the Checkout v71 document', () => {
  const double = new AdyenDouble();
  beforeAll(() => double.start());
  afterAll(() => double.stop());

  const post = (path: string, body: unknown, idempotencyKey: string = randomUUID()) => {
    const connection = double.connection('sandbox');
    return fetchJson(`${connection.endpoint}${path}`, connection.credentials.apiKey!, body, idempotencyKey);
  };

  it('answers 422 and records a violation for a request the document rejects', async () => {
    const valid = {
      merchantAccount: double.merchantAccount,
      reference: 'r1',
      amount: { currency: 'EUR', value: 100 },
      returnUrl: 'https://gateway.test/return',
      paymentMethod: { type: 'scheme', number: '4111111111111111', expiryMonth: '03', expiryYear: '2030' },
    };
    const { merchantAccount: _omitted, ...withoutAccount } = valid;
    expect((await post('/v71/payments', withoutAccount)).status).toBe(422);
    const stringAmount = { ...valid, reference: 'r2', amount: { currency: 'EUR', value: '100' } };
    expect((await post('/v71/payments', stringAmount)).status).toBe(422);
    expect(double.violations()).toEqual([
      expect.stringContaining("must have required property 'merchantAccount'"),
      expect.stringContaining('/amount/value must be integer'),
    ]);
    expect(double.chargesFor('r1') + double.chargesFor('r2')).toBe(0);
    const ok = await post('/v71/payments', { ...valid, reference: 'r3' });
    expect(ok).toMatchObject({ status: 200, body: { resultCode: 'Authorised' } });
  });

  it('answers an Idempotency-Key reused for another request with 422 and acts once', async () => {
    const key = randomUUID();
    const body = {
      merchantAccount: double.merchantAccount,
      reference: 'r4',
      amount: { currency: 'EUR', value: 100 },
      returnUrl: 'https://gateway.test/return',
      paymentMethod: { type: 'scheme', number: '4111111111111111', expiryMonth: '03', expiryYear: '2030' },
    };
    expect((await post('/v71/payments', body, key)).status).toBe(200);
    const other = await post('/v71/payments', { ...body, amount: { currency: 'EUR', value: 200 } }, key);
    expect(other).toMatchObject({ status: 422, body: { errorCode: '704' } });
    expect(double.chargesFor('r4')).toBe(1);
  });

  it('flags answers and webhooks the documents reject', () => {
    expect(checkoutResponseProblems('/payments', 200, { resultCode: 'Approved' })).toEqual([
      expect.stringContaining('/resultCode must be equal to one of the allowed values'),
    ]);
    expect(
      checkoutResponseProblems('/payments/{paymentPspReference}/captures', 201, { status: 'received' }),
    ).toContainEqual(expect.stringContaining("must have required property 'paymentPspReference'"));
    expect(
      webhookProblems('CAPTURE', {
        live: 'false',
        notificationItems: [{ NotificationRequestItem: { success: true } }],
      }),
    ).toContainEqual(expect.stringContaining('/success must be string'));
  });
});

async function fetchJson(
  url: string,
  apiKey: string,
  body: unknown,
  idempotencyKey: string,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      {
        method: 'POST',
        ca: selfSignedCert().cert,
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'idempotency-key': idempotencyKey },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) as unknown }),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
