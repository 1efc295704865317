import { randomUUID } from 'node:crypto';
import { sandboxMerchant, PaymentsClient } from '../payments/payments-fixtures';
import { TestStack } from '../support/stack';
import { DashboardClient } from './dashboard-client';

/** #45 item 4: an idempotent replay is authorized like the original request (the caller's role included). */
describe('an Idempotency-Key replay through a dashboard session (gateway → NATS → webhooks)', () => {
  let stack: TestStack;
  let shop: PaymentsClient;
  let owner: DashboardClient;
  let developer: DashboardClient;

  beforeAll(async () => {
    stack = await TestStack.start();
    shop = await sandboxMerchant(stack);
    const m = shop.merchantCode;
    owner = await DashboardClient.signedIn(stack, [{ merchantCode: m, role: 'owner' }]);
    developer = await DashboardClient.signedIn(stack, [{ merchantCode: m, role: 'developer' }]);
  });
  afterAll(() => stack.stop());

  const endpoint = (client: DashboardClient, idempotencyKey: string, url: string) =>
    client.api('POST', '/v1/webhook-endpoint', shop.merchantCode, {
      body: { url, events: ['*'] },
      headers: { 'idempotency-key': idempotencyKey },
    });

  it("a developer sending an owner's Idempotency-Key and body does not get the owner's endpoint or its secret", async () => {
    const key = randomUUID();
    const url = `https://hooks.example.com/${randomUUID()}`;
    const first = await endpoint(owner, key, url);
    expect(first.status).toBe(201);
    expect(first.body.secret).toMatch(/^whsec_/);

    // The owner's own retry is a replay of the first answer.
    const again = await endpoint(owner, key, url);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);

    // The developer's is a request of its own: the same url is taken, so no endpoint, no secret.
    const replay = await endpoint(developer, key, url);
    expect(replay.status).toBe(409);
    expect(replay.body.error.code).toBe('DUPLICATE_WEBHOOK_URL');
    expect(JSON.stringify(replay.body)).not.toContain(first.body.secret);
  });

  it("a developer sending an API key's Idempotency-Key does not replay the key's answer", async () => {
    const key = randomUUID();
    const url = `https://hooks.example.com/${randomUUID()}`;
    const first = await stack.http('POST', '/v1/webhook-endpoint', {
      key: shop.key,
      body: { merchantCode: shop.merchantCode, url, events: ['*'] },
      headers: { 'idempotency-key': key },
    });
    expect(first.status).toBe(201);
    const replay = await endpoint(developer, key, url);
    expect(replay.status).toBe(409);
    expect(JSON.stringify(replay.body)).not.toContain(first.body.secret);
  });

  it("a session's own retry still replays, and another user's same key is a new request", async () => {
    const key = randomUUID();
    const first = await endpoint(developer, key, `https://hooks.example.com/${randomUUID()}`);
    expect(first.status).toBe(201);
    const retry = await endpoint(developer, key, first.body.url);
    expect(retry.status).toBe(201);
    expect(retry.body.id).toBe(first.body.id);
    const ownerOwn = await endpoint(owner, key, `https://hooks.example.com/${randomUUID()}`);
    expect(ownerOwn.status).toBe(201);
    expect(ownerOwn.body.id).not.toBe(first.body.id);
  });
});
