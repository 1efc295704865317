import { randomUUID } from 'node:crypto';
import { PERMISSIONS } from '../../apps/gateway/src/auth/permission';
import { PaymentsClient, sandboxMerchant, usd } from '../payments/payments-fixtures';
import { TestStack } from '../support/stack';
import { DashboardClient } from './dashboard-client';

describe('the dashboard session on the REST API: merchant, environment and role (gateway → NATS → payments)', () => {
  let stack: TestStack;
  let shop: PaymentsClient;
  let other: string;
  let owner: DashboardClient;
  let developer: DashboardClient;
  let support: DashboardClient;

  beforeAll(async () => {
    stack = await TestStack.start();
    shop = await sandboxMerchant(stack);
    other = await stack.merchant();
    const m = shop.merchantCode;
    owner = await DashboardClient.signedIn(stack, [{ merchantCode: m, role: 'owner' }]);
    developer = await DashboardClient.signedIn(stack, [{ merchantCode: m, role: 'developer' }]);
    support = await DashboardClient.signedIn(stack, [
      { merchantCode: m, role: 'support' },
      { merchantCode: other, role: 'owner' },
    ]);
  });
  afterAll(() => stack.stop());

  const post = (client: DashboardClient, path: string, body: Record<string, unknown> = {}) =>
    client.api('POST', path, shop.merchantCode, { body, headers: { 'idempotency-key': randomUUID() } });

  it('finds a payment made with an API key, by order code and by id, in its environment only', async () => {
    const paid = await shop.purchase();
    expect(paid.status).toBe(200);
    const byOrder = await support.api('GET', `/v1/payment?orderCode=${paid.body.orderCode}`, shop.merchantCode);
    expect(byOrder.status).toBe(200);
    expect(byOrder.body.map((p: { id: string }) => p.id)).toEqual([paid.body.id]);
    const byId = await developer.api('GET', `/v1/payment/${paid.body.id}`, shop.merchantCode);
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ id: paid.body.id, status: 'captured' });
    const production = await owner.api('GET', `/v1/payment/${paid.body.id}`, shop.merchantCode, {
      environment: 'production',
    });
    expect(production.status).toBe(404);
  });

  it('support: refund yes; capture, secret roll and key creation no', async () => {
    const paid = await shop.purchase();
    const refund = await post(support, `/v1/payment/${paid.body.id}/refund`, { amount: usd(400) });
    expect(refund.status).toBe(200);
    expect((await shop.get(paid.body.id)).body.amountRefunded.value).toBe(400);

    const held = await shop.authorize();
    const capture = await post(support, `/v1/payment/${held.body.id}/capture`, { amount: usd(1000) });
    expect(capture.status).toBe(403);
    expect(capture.body.error.code).toBe('AUTH_INSUFFICIENT_SCOPE');
    expect((await shop.get(held.body.id)).body.status).toBe('authorized');

    const roll = await post(support, '/v1/webhook-secret/roll');
    expect(roll.status).toBe(403);
    expect(roll.body.error.code).toBe('AUTH_INSUFFICIENT_SCOPE');
    const key = await support.call('POST', '/dashboard/api/keys', {
      body: { name: 'mine', type: 'private', environment: 'sandbox', merchantCode: shop.merchantCode },
    });
    expect(key.status).toBe(403);
    expect(key.body.error.code).toBe('AUTH_INSUFFICIENT_SCOPE');
    const list = await support.call('GET', `/dashboard/api/keys?merchantCode=${shop.merchantCode}&environment=sandbox`);
    expect(list.status).toBe(403);
  });

  it('developer: no money movement (refund, purchase); configuration yes', async () => {
    const paid = await shop.purchase();
    const refund = await post(developer, `/v1/payment/${paid.body.id}/refund`, { amount: usd(100) });
    expect(refund.status).toBe(403);
    expect((await shop.get(paid.body.id)).body.amountRefunded.value).toBe(0);
    const purchase = await post(developer, '/v1/payment/purchase', { orderCode: `o-${randomUUID()}` });
    expect(purchase.status).toBe(403);
    const endpoint = await post(developer, '/v1/webhook-endpoint', {
      url: 'https://hooks.example.com/dev',
      events: ['*'],
    });
    expect(endpoint.status).toBe(201);
  });

  it('owner: capture and secret roll', async () => {
    const held = await shop.authorize();
    const capture = await post(owner, `/v1/payment/${held.body.id}/capture`, { amount: usd(1000) });
    expect(capture.status).toBe(200);
    expect((await shop.get(held.body.id)).body.status).toBe('captured');
    expect((await post(owner, '/v1/webhook-secret/roll')).status).toBe(200);
  });

  it('a change through /v1 without the CSRF token is refused and changes nothing', async () => {
    const paid = await shop.purchase();
    const r = await owner.api('POST', `/v1/payment/${paid.body.id}/refund`, shop.merchantCode, {
      body: { amount: usd(100) },
      csrf: false,
    });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('CSRF_INVALID');
    expect((await shop.get(paid.body.id)).body.amountRefunded.value).toBe(0);
  });

  it('another merchant than the user’s, in the header or the body, is refused', async () => {
    const paid = await shop.purchase();
    const header = await developer.api('GET', `/v1/payment/${paid.body.id}`, other);
    expect(header.status).toBe(403);
    expect(header.body.error.code).toBe('MERCHANT_MISMATCH');
    const query = await developer.api('GET', `/v1/payment/${paid.body.id}?merchantCode=${other}`, shop.merchantCode);
    expect(query.status).toBe(403);
    expect(query.body.error.code).toBe('MERCHANT_MISMATCH');
    // support is owner of `other`: the role is the one on the merchant named, so other's view is its own.
    const own = await support.api('GET', `/v1/payment/${paid.body.id}`, other);
    expect(own.status).toBe(404);
  });

  it('needs the merchant and environment headers; a key and a session together are refused', async () => {
    const noMerchant = await owner.call('GET', '/v1/ping');
    expect(noMerchant.status).toBe(400);
    expect(noMerchant.body.error.param).toBe('X-Dashboard-Merchant');
    const badEnv = await owner.api('GET', '/v1/ping', shop.merchantCode, { environment: 'staging' });
    expect(badEnv.status).toBe(400);
    expect(badEnv.body.error.param).toBe('X-Dashboard-Environment');
    const both = await owner.api('GET', '/v1/ping', shop.merchantCode, {
      headers: { authorization: `Bearer ${shop.key}` },
    });
    expect(both.status).toBe(400);
    expect(both.body.error.code).toBe('VALIDATION_FAILED');
    const ping = await owner.api('GET', '/v1/ping', shop.merchantCode, { environment: 'production' });
    expect(ping.status).toBe(200);
    expect(ping.body).toMatchObject({ merchantCode: shop.merchantCode, environment: 'production' });
  });

  it('admin routes are not on the public port, with a session or without', async () => {
    for (const path of ['/v1/admin/merchants', '/v1/admin/dashboard-users']) {
      const r = await owner.api('GET', path, shop.merchantCode);
      expect(r.status).toBe(404);
    }
  });

  it('owners create, list and revoke keys; the key is shown once and works as a key', async () => {
    const created = await owner.call('POST', '/dashboard/api/keys', {
      body: { name: 'Shop server', type: 'private', environment: 'sandbox', merchantCode: shop.merchantCode },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Shop server',
      type: 'private',
      environment: 'sandbox',
      revokedAt: null,
    });
    expect(created.body.key.startsWith(created.body.prefix.slice(0, -1))).toBe(true);
    expect((await stack.http('GET', '/v1/ping', { key: created.body.key })).status).toBe(200);

    const list = await owner.call('GET', `/dashboard/api/keys?merchantCode=${shop.merchantCode}&environment=sandbox`);
    expect(list.status).toBe(200);
    const listed = list.body.find((k: { id: string }) => k.id === created.body.id);
    expect(listed).toEqual({ ...created.body, key: undefined, createdAt: expect.any(String) });
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);
    const production = await owner.call(
      'GET',
      `/dashboard/api/keys?merchantCode=${shop.merchantCode}&environment=production`,
    );
    expect(production.body.map((k: { id: string }) => k.id)).not.toContain(created.body.id);

    expect((await support.call('DELETE', `/dashboard/api/keys/${created.body.id}`)).status).toBe(403);
    expect((await owner.call('DELETE', `/dashboard/api/keys/${created.body.id}`, { csrf: false })).status).toBe(403);
    expect((await owner.call('DELETE', `/dashboard/api/keys/${created.body.id}`)).status).toBe(204);
    expect((await stack.http('GET', '/v1/ping', { key: created.body.key })).status).toBe(401);
    const foreign = (await stack.key([other])).id;
    expect((await owner.call('DELETE', `/dashboard/api/keys/${foreign}`)).status).toBe(404);
  });

  it('key creation honours Idempotency-Key: a replay answers the record without the key, another body is 422', async () => {
    const idempotencyKey = randomUUID();
    const body = { name: 'CI', type: 'private', environment: 'sandbox', merchantCode: shop.merchantCode };
    const headers = { 'idempotency-key': idempotencyKey };
    const first = await owner.call('POST', '/dashboard/api/keys', { body, headers });
    expect(first.status).toBe(201);
    const again = await owner.call('POST', '/dashboard/api/keys', { body, headers });
    expect({ status: again.status, body: again.body }).toEqual({
      status: 201,
      body: { ...first.body, key: undefined },
    });
    const list = await owner.call('GET', `/dashboard/api/keys?merchantCode=${shop.merchantCode}&environment=sandbox`);
    expect(list.body.filter((k: { name: string }) => k.name === 'CI')).toHaveLength(1);
    const other = await owner.call('POST', '/dashboard/api/keys', { body: { ...body, name: 'CD' }, headers });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('every route a session can reach declares its permission (deny by default)', async () => {
    const doc = await stack.http('GET', '/openapi.json', { port: 'internal' });
    const merchantRoutes = Object.entries<Record<string, any>>(doc.body.paths).flatMap(([path, item]) =>
      Object.entries<any>(item)
        .filter(([, op]) => (op.security ?? []).some((s: object) => 'privateKey' in s))
        .map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, permission: op['x-permission'] })),
    );
    expect(merchantRoutes.length).toBeGreaterThan(40);
    for (const { route, permission } of merchantRoutes) {
      expect({ route, declared: (PERMISSIONS as readonly string[]).includes(permission) }).toEqual({
        route,
        declared: true,
      });
    }
  });
});
