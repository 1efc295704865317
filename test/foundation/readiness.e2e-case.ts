import { INestApplication } from '@nestjs/common';
import { NatsClient } from '@app/messaging';
import { Draining } from '@app/observability';
import { runState } from '../support/run-state';
import { TestStack } from '../support/stack';
import { TcpProxy } from '../support/tcp-proxy';
import { sleep } from '../support/wait';

/** A URL whose host and port go through the proxy instead. */
const through = (url: string, proxy: TcpProxy): string => {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(proxy.port);
  return u.toString();
};
const target = (url: string) => ({ host: new URL(url).hostname, port: Number(new URL(url).port) });

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > until) return v;
    await sleep(100);
  }
}

/**
 * A dependency's outage (NATS, a service, the gateway's database, a service's database) is answered to clients
 * as the JSON 503 SERVICE_UNAVAILABLE envelope while the gateway stays ready (in the Service's endpoints): it
 * turns unready only when it stops. A service still turns unready when its own database is down.
 */
describe('readiness: a downstream outage answers 503, the gateway stays ready', () => {
  let stack: TestStack;
  let gateway: INestApplication;
  let nats: TcpProxy;
  let gatewayDb: TcpProxy;
  let paymentsDb: TcpProxy;
  let key: string;
  let paymentsHealth: string;

  beforeAll(async () => {
    const { natsUrl, pgBase } = runState();
    nats = await TcpProxy.start(target(natsUrl));
    gatewayDb = await TcpProxy.start(target(pgBase));
    paymentsDb = await TcpProxy.start(target(pgBase));
    stack = await TestStack.start({
      services: [],
      gateway: false,
      env: { RPC_TIMEOUT_MS: '3000', KEY_CACHE_TTL_MS: '50' },
    });
    const payments = await stack.startService('payments', {
      PAYMENTS_DATABASE_URL: through(stack.env.PAYMENTS_DATABASE_URL, paymentsDb),
    });
    paymentsHealth = (await payments.getUrl()).replace('[::1]', '127.0.0.1');
    gateway = await stack.startGateway({
      NATS_URL: through(natsUrl, nats).replace(/\/$/, ''),
      GATEWAY_DATABASE_URL: through(stack.env.GATEWAY_DATABASE_URL, gatewayDb),
    });
    key = (await stack.key([await stack.merchant()])).key;
  }, 120_000);
  afterAll(async () => {
    for (const p of [nats, gatewayDb, paymentsDb]) p?.restore();
    await stack?.stop();
    for (const p of [nats, gatewayDb, paymentsDb]) await p?.close();
  });

  const ready = () => stack.http('GET', '/health/ready');
  const payment = () => stack.http('GET', '/v1/payment/0190f1a2-0000-7000-8000-000000000000', { key });
  const expect503 = (r: Awaited<ReturnType<typeof payment>>, message: RegExp) => {
    expect(r.status).toBe(503);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.body.error).toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringMatching(message),
      requestId: r.headers.get('x-request-id'),
    });
  };

  it('all up: ready, and a lookup answers 404', async () => {
    expect(await ready()).toMatchObject({
      status: 200,
      body: { status: 'ok', checks: { database: 'ok', nats: 'ok' } },
    });
    expect((await payment()).status).toBe(404);
  });

  it('NATS down: requests answer 503 at once, readiness stays 200 and names the broker', async () => {
    nats.cut();
    // A request that raced the cut (written before the client saw its socket close) waits out RPC_TIMEOUT_MS;
    // once the client knows the broker is gone, requests are answered at once.
    const client = gateway.get(NatsClient);
    await eventually(
      async () => client.connected(),
      (up) => !up,
    );
    const started = Date.now();
    const r = await payment();
    expect503(r, /broker/);
    expect(Date.now() - started).toBeLessThan(2_000);
    const health = await ready();
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      status: 'degraded',
      checks: { database: 'ok', nats: expect.stringMatching(/^down/) },
    });
    nats.restore();
    expect((await eventually(payment, (x) => x.status === 404)).status).toBe(404);
    expect((await eventually(ready, (x) => x.body.status === 'ok')).body.status).toBe('ok');
  });

  it("the gateway's database down: requests answer 503, readiness stays 200 and names the database", async () => {
    gatewayDb.cut();
    await sleep(100); // past KEY_CACHE_TTL_MS: the key is looked up again
    const r = await eventually(payment, (x) => x.status === 503);
    expect503(r, /gateway's database/);
    const health = await ready();
    expect(health.status).toBe(200);
    expect(health.body.checks).toMatchObject({ database: expect.stringMatching(/^down/), nats: 'ok' });
    gatewayDb.restore();
    expect((await eventually(payment, (x) => x.status === 404)).status).toBe(404);
  });

  it("a service's database down: that service answers 503 through the gateway and turns unready itself", async () => {
    paymentsDb.cut();
    const r = await eventually(payment, (x) => x.status === 503);
    expect503(r, /database/);
    expect((await ready()).status).toBe(200);
    const service = await fetch(`${paymentsHealth}/health/ready`);
    expect(service.status).toBe(503);
    expect(await service.json()).toMatchObject({
      status: 'unavailable',
      checks: { database: expect.stringMatching(/^down/) },
    });
    paymentsDb.restore();
    expect((await eventually(payment, (x) => x.status === 404)).status).toBe(404);
  });

  it('a service stopped: 503 SERVICE_UNAVAILABLE naming it, readiness stays 200', async () => {
    await stack.stopService('payments');
    expect503(await payment(), /payments service/);
    expect(await ready()).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('counts readiness changes on /metrics, and turns unready only when the gateway stops', async () => {
    const metrics = async () => (await stack.http<string>('GET', '/metrics', { port: 'internal' })).body;
    expect(await metrics()).toMatch(/^readiness_ready\{app="gateway"\} 1$/m);
    gateway.get(Draining).begin();
    expect(await ready()).toMatchObject({ status: 503, body: { status: 'draining' } });
    const text = await metrics();
    expect(text).toMatch(/^readiness_ready\{app="gateway"\} 0$/m);
    expect(text).toMatch(/^readiness_transitions_total\{app="gateway"\} 1$/m);
    expect(text).toMatch(/^dependency_up\{dependency="database",app="gateway"\} 1$/m);
  });

  // Last: a second gateway in this process (see docs/development.md on passport's registry).
  it('a gateway started while NATS is down is ready and answers 503 within a bound, not a hang', async () => {
    nats.cut();
    await stack.startGateway({
      NATS_URL: through(runState().natsUrl, nats).replace(/\/$/, ''),
      GATEWAY_DATABASE_URL: through(stack.env.GATEWAY_DATABASE_URL, gatewayDb),
    });
    expect((await ready()).status).toBe(200);
    const started = Date.now();
    expect503(await payment(), /broker/);
    expect(Date.now() - started).toBeLessThan(3_000);
    nats.restore();
  });
});
