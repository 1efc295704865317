import { AddressInfo, createServer, Server } from 'node:net';
import { DataSource } from 'typeorm';
import { DELIVERY_ERRORS, EventTypes } from '@app/contracts';
import { TestStack } from '../support/stack';
import { Attempt, emit } from './emit';
import { WebhookReceiver, webhookStack } from '../support/webhook-receiver';
import { until } from '../support/wait';

jest.setTimeout(60_000);

/** #45 item 6: the delivery log keeps a class of failure, never the socket's text (addresses, ports, versions). */
describe('webhook delivery log: error classes, not network errors', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;
  let plain: Server;
  let m: string;
  let key: string;
  let db: DataSource;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    receiver.respond = () => 503;
    // A plain TCP server on the target port: the TLS handshake fails.
    plain = createServer((socket) => {
      socket.on('error', () => undefined);
      socket.on('data', () => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    stack = await webhookStack({ services: [], env: { WEBHOOK_RETRY_SCHEDULE: '60' } });
    m = await stack.merchant();
    key = (await stack.key([m])).key;
    db = stack.webhooks.get(DataSource);
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    await new Promise((resolve) => plain?.close(resolve));
  });

  const create = async (url: string): Promise<string> => {
    const r = await stack.http('POST', '/v1/webhook-endpoint', { key, body: { url, events: ['*'] } });
    expect(r.status).toBe(201);
    return r.body.id;
  };
  const firstTry = (id: string) =>
    until(
      async () => (await stack.http<Attempt[]>('GET', `/v1/webhook-endpoint/${id}/deliveries`, { key })).body,
      (log) => log.some((a) => a.status === 'failed'),
    );

  it('a refused connection, a failed TLS handshake and an HTTP 503 are logged as refused, tls and http_status', async () => {
    const refused = await create('https://127.0.0.1:1/hook');
    const tls = await create(`https://127.0.0.1:${(plain.address() as AddressInfo).port}/hook`);
    const status = await create(receiver.url('/down'));
    await emit(stack.gateway!, EventTypes.paymentCaptured, m, { id: 'pay_errors' });

    const [r, t, s] = await Promise.all([firstTry(refused), firstTry(tls), firstTry(status)]);
    const first = (log: Attempt[]) => log.find((a) => a.attempt === 1);
    expect(first(r)).toMatchObject({ status: 'failed', responseStatus: null, error: 'refused' });
    expect(first(t)).toMatchObject({ status: 'failed', responseStatus: null, error: 'tls' });
    expect(first(s)).toMatchObject({ status: 'failed', responseStatus: 503, error: 'http_status' });
    for (const log of [r, t, s]) {
      expect(JSON.stringify(log)).not.toMatch(/127\.0\.0\.1|ECONN|EPROTO|SSL|version/i);
    }

    const stored: Array<{ error: string }> = await db.query(
      'SELECT DISTINCT error FROM webhook_attempts WHERE error IS NOT NULL ORDER BY error',
    );
    expect(stored.map((row) => row.error)).toEqual(['http_status', 'refused', 'tls']);
  });

  it('the table refuses any text that is not a class', async () => {
    const [row]: Array<{ id: string }> = await db.query('SELECT id FROM webhook_attempts LIMIT 1');
    await expect(
      db.query(`UPDATE webhook_attempts SET error = 'connect ECONNREFUSED 127.0.0.1:1' WHERE id = $1`, [row.id]),
    ).rejects.toThrow(/webhook_attempts_error_class/);
    for (const kind of DELIVERY_ERRORS) {
      await db.query('UPDATE webhook_attempts SET error = $2 WHERE id = $1', [row.id, kind]);
    }
  });
});
