import { connect, NatsConnection } from 'nats';
import { PingSubjects, queueGroupOf } from '@app/contracts';
import { runState } from '../support/run-state';
import { TestStack } from '../support/stack';

describe('services going away and coming back; replicas in a queue group', () => {
  let stack: TestStack;
  let key: string;
  let nc: NatsConnection;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['payments', 'billing'], env: { RPC_TIMEOUT_MS: '400' } });
    key = (await stack.key([await stack.merchant()])).key;
    nc = await connect({ servers: runState().natsUrl });
  });
  afterAll(async () => {
    await nc.close();
    await stack.stop();
  });

  it('a stopped service → 503 SERVICE_UNAVAILABLE at once, and answers again when it is back', async () => {
    expect((await stack.http('GET', '/v1/ping?service=billing', { key })).status).toBe(200);
    await stack.stopService('billing');
    const started = Date.now();
    const down = await stack.http('GET', '/v1/ping?service=billing', { key });
    expect(down.status).toBe(503);
    expect(down.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', requestId: down.headers.get('x-request-id') });
    expect(Date.now() - started).toBeLessThan(400);
    // The other service is unaffected.
    expect((await stack.http('GET', '/v1/ping?service=payments', { key })).status).toBe(200);
    await stack.startService('billing');
    const back = await stack.http('GET', '/v1/ping?service=billing', { key });
    expect(back.status).toBe(200);
    expect(back.body.service).toBe('billing');
  });

  it('a service that does not answer in time → 504 UPSTREAM_TIMEOUT within the timeout', async () => {
    await stack.stopService('billing');
    // A replica that takes requests and never replies: the gateway must not hang.
    const hung = nc.subscribe(PingSubjects.billing, { queue: queueGroupOf('billing') });
    const started = Date.now();
    const r = await stack.http('GET', '/v1/ping?service=billing', { key });
    const elapsed = Date.now() - started;
    hung.unsubscribe();
    expect(r.status).toBe(504);
    expect(r.body.error.code).toBe('UPSTREAM_TIMEOUT');
    expect(elapsed).toBeGreaterThanOrEqual(350);
    expect(elapsed).toBeLessThan(2000);
    await stack.startService('billing');
    expect((await stack.http('GET', '/v1/ping?service=billing', { key })).status).toBe(200);
  });

  it('two replicas of one service behind the same queue group both take requests, each request once', async () => {
    await stack.startService('payments');
    expect(stack.services.get('payments')).toHaveLength(2);
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => stack.http('GET', '/v1/ping?service=payments', { key })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const byInstance = new Map<string, number>();
    for (const a of answers) byInstance.set(a.body.instanceId, (byInstance.get(a.body.instanceId) ?? 0) + 1);
    expect(byInstance.size).toBe(2);
    for (const n of byInstance.values()) expect(n).toBeGreaterThan(0);
    // Each request was handled by exactly one replica: one "ping" log line per request id.
    const ids = answers.map((a) => a.body.requestId as string);
    const pings = stack
      .log('payments')
      .json()
      .filter((l) => l.msg === 'ping' && ids.includes(l.requestId as string));
    expect(pings).toHaveLength(60);
  });
});
