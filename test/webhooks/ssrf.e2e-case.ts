import { DataSource } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { EventTypes } from '@app/contracts';
import { WebhookSecretCipher } from '@app/cipher';
import { TestStack } from '../support/stack';
import { Attempt, emit } from './emit';
import { selfSignedCert, WebhookReceiver } from '../support/webhook-receiver';
import { until } from '../support/wait';

// Real-time retries and restarts take seconds; Jest ignores testTimeout inside a project entry (default 5 s).
jest.setTimeout(60_000);

/** WEBHOOK_ALLOW_PRIVATE_TARGETS unset (false): the SSRF guard at registration and again at delivery time. */
describe('webhook targets: https only, no private addresses', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;
  let m: string;
  let key: string;
  let db: DataSource;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await TestStack.start({
      services: [],
      webhookCa: selfSignedCert().cert,
      env: { WEBHOOK_RETRY_SCHEDULE: '1', WEBHOOK_DISPATCH_POLL_MS: '100' },
    });
    m = await stack.merchant();
    key = (await stack.key([m])).key;
    db = stack.webhooks.get(DataSource);
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  const create = (url: string) => stack.http('POST', '/v1/webhook-endpoint', { key, body: { url, events: ['*'] } });

  it.each([
    ['plain http', 'http://93.184.216.34/hook'],
    ['another scheme', 'ftp://93.184.216.34/hook'],
    ['not a URL', 'not a url'],
    ['loopback', 'https://127.0.0.1/hook'],
    ['the receiver itself', 'https://127.0.0.1:PORT/hook'],
    ['a name resolving to loopback', 'https://localhost/hook'],
    ['RFC 1918 10/8', 'https://10.1.2.3/hook'],
    ['RFC 1918 172.16/12', 'https://172.20.0.1/hook'],
    ['RFC 1918 192.168/16', 'https://192.168.1.10/hook'],
    ['link-local / cloud metadata', 'https://169.254.169.254/latest/meta-data'],
    ['CGNAT', 'https://100.64.0.1/hook'],
    ['unspecified', 'https://0.0.0.0/hook'],
    ['IPv6 loopback', 'https://[::1]/hook'],
    ['IPv6 unique-local', 'https://[fd12:3456::1]/hook'],
    ['IPv6 link-local', 'https://[fe80::1]/hook'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook'],
  ])('refuses %s at registration (400 VALIDATION_FAILED, param url)', async (_, url) => {
    const r = await create(url.replace('PORT', String(receiver.port)));
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'VALIDATION_FAILED', param: 'url' });
  });

  it('accepts a public https address', async () => {
    const r = await create('https://93.184.216.34/hook');
    expect(r.status).toBe(201);
    await stack.http('DELETE', `/v1/webhook-endpoint/${r.body.id}`, { key });
  });

  it('checks again at delivery time: an endpoint now pointing at a private address fails, nothing is sent', async () => {
    // As if its DNS name had been re-pointed at an internal address after registration.
    const id = uuidv7();
    const sealed = stack.webhooks.get(WebhookSecretCipher).seal({ endpointId: id }, 'whsec_test');
    await db.query(
      `INSERT INTO webhook_endpoints (id, merchant_code, environment, url, events, secret_key_id, secret_sealed, created_at)
       VALUES ($1, $2, 'sandbox', $3, '{*}', $4, $5, now())`,
      [id, m, receiver.url('/internal'), sealed.keyId, sealed.blob],
    );
    const event = await emit(stack.gateway!, EventTypes.paymentCaptured, m, { id: 'pay_1' });
    const log = await until(
      async () => (await stack.http<Attempt[]>('GET', `/v1/webhook-endpoint/${id}/deliveries`, { key })).body,
      (l) => l[0]?.status === 'dead',
    );
    expect(log.map((a) => [a.attempt, a.status])).toEqual([
      [2, 'dead'],
      [1, 'failed'],
    ]);
    expect(log[1]).toMatchObject({ eventId: event.id, responseStatus: null });
    // The refusal names no address: it would tell the merchant what an internal name resolves to.
    expect(log[1].error).toBe('private_target');
    expect(receiver.received).toEqual([]);
  });

  it("refuses a payment's webhookUrl on a private address, and one over plain http for good", async () => {
    const privateUrl = await emit(stack.gateway!, EventTypes.paymentCaptured, m, {
      id: 'pay_2',
      webhookUrl: receiver.url('/pay'),
    });
    const plain = await emit(stack.gateway!, EventTypes.paymentCaptured, m, {
      id: 'pay_3',
      webhookUrl: `http://127.0.0.1:${receiver.port}/pay`,
    });
    const attempts = (eventId: string) =>
      db.query(
        `SELECT a.attempt, a.status, a.error FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
         WHERE d.event_id = $1 AND d.endpoint_id IS NULL ORDER BY a.attempt`,
        [eventId],
      );
    const p = await until(
      () => attempts(privateUrl.id),
      (rows: Array<{ status: string }>) => rows.at(-1)?.status === 'dead',
    );
    expect(p.map((r: { status: string }) => r.status)).toEqual(['failed', 'dead']);
    const h = await until(
      () => attempts(plain.id),
      (rows: Array<{ status: string }>) => rows.at(-1)?.status === 'dead',
    );
    // No retry can make http:// acceptable: dead at once.
    expect(h).toEqual([{ attempt: 1, status: 'dead', error: 'invalid_url' }]);
    expect(receiver.received).toEqual([]);
  });
});
