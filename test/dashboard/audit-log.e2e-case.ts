import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PaymentsClient, usd } from '../payments/payments-fixtures';
import { TestStack } from '../support/stack';
import { DashboardClient } from './dashboard-client';

interface Entry {
  id: string;
  type: string;
  channel: string;
  userEmail: string | null;
  apiKeyId: string | null;
  target: string | null;
  detail: Record<string, unknown>;
  clientAddress: string | null;
  environment: string | null;
}

describe('the audit log (gateway → NATS → payments, webhooks; real Postgres)', () => {
  let stack: TestStack;
  let shop: PaymentsClient;
  let keyId: string;
  let owner: DashboardClient;
  let ownerEmail: string;
  let support: DashboardClient;

  beforeAll(async () => {
    stack = await TestStack.start();
    const merchantCode = await stack.merchant();
    const key = await stack.key([merchantCode]);
    keyId = key.id;
    shop = new PaymentsClient(stack, key.key, merchantCode);
    const invited = await DashboardClient.invited(stack, [{ merchantCode, role: 'owner' }]);
    ownerEmail = invited.email;
    owner = new DashboardClient(stack);
    await owner.signIn(ownerEmail);
    support = await DashboardClient.signedIn(stack, [{ merchantCode, role: 'support' }]);
  });
  afterAll(() => stack.stop());

  const log = async (client: DashboardClient): Promise<Entry[]> => {
    const r = await client.api('GET', '/v1/audit-events?limit=100', shop.merchantCode);
    expect(r.status).toBe(200);
    return r.body;
  };

  it('money moved with an API key and by a dashboard user, a key and an endpoint: who, what, from where, newest first', async () => {
    const paid = await shop.purchase();
    expect(paid.status).toBe(200);
    const refundKey = randomUUID();
    expect((await shop.refund(paid.body.id, 300, refundKey)).status).toBe(200);
    // A retry with the same Idempotency-Key answers the same refund: one change, one entry.
    expect((await shop.refund(paid.body.id, 300, refundKey)).status).toBe(200);
    const byUser = await owner.api('POST', `/v1/payment/${paid.body.id}/refund`, shop.merchantCode, {
      body: { amount: usd(200) },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(byUser.status).toBe(200);
    const endpoint = await owner.api('POST', '/v1/webhook-endpoint', shop.merchantCode, {
      body: { url: 'https://hooks.example.com/audit', events: ['*'] },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(endpoint.status).toBe(201);
    const created = await owner.call('POST', '/dashboard/api/keys', {
      body: { merchantCode: shop.merchantCode, environment: 'sandbox', type: 'private', name: 'audit' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(created.status).toBe(201);
    expect((await owner.call('DELETE', `/dashboard/api/keys/${created.body.id}`)).status).toBe(204);
    // A refused change is not a change.
    const refused = await shop.refund(paid.body.id, 1_000_000);
    expect(refused.status).toBeGreaterThanOrEqual(400);

    const entries = await log(owner);
    expect(entries.map((e) => e.type)).toEqual([
      'api_key.revoked',
      'api_key.created',
      'webhook_endpoint.created',
      'payment.refunded',
      'payment.refunded',
      'api_key.created',
    ]);
    const [revoked, keyCreated, hook, userRefund, keyRefund, operatorKey] = entries;
    // The operator made the merchant's first key through the admin API.
    expect(operatorKey).toMatchObject({ channel: 'admin', userEmail: null, apiKeyId: null, target: keyId });
    expect(keyRefund).toMatchObject({
      channel: 'api',
      apiKeyId: keyId,
      userEmail: null,
      target: paid.body.id,
      environment: 'sandbox',
      detail: { amount: { value: 300, currency: 'USD' } },
      clientAddress: '127.0.0.1',
    });
    expect(userRefund).toMatchObject({
      channel: 'dashboard',
      userEmail: ownerEmail,
      apiKeyId: null,
      target: paid.body.id,
      detail: { amount: { value: 200 } },
    });
    expect(hook).toMatchObject({
      channel: 'dashboard',
      target: endpoint.body.id,
      detail: { url: 'https://hooks.example.com/audit' },
    });
    expect(keyCreated).toMatchObject({ target: created.body.id, detail: { name: 'audit', type: 'private' } });
    expect(revoked).toMatchObject({ target: created.body.id, userEmail: ownerEmail });
    expect(JSON.stringify(entries)).not.toContain(created.body.key);

    // Pages by id stay right: the page after the second entry starts at the third.
    const page = await owner.api('GET', `/v1/audit-events?limit=2&startingAfter=${entries[1].id}`, shop.merchantCode);
    expect(page.body.map((e: Entry) => e.id)).toEqual([entries[2].id, entries[3].id]);
    // The API key reads it too; support may not.
    const byKey = await stack.http('GET', '/v1/audit-events', { key: shop.key });
    expect(byKey.status).toBe(200);
    expect(byKey.body).toHaveLength(6);
    const bySupport = await support.api('GET', '/v1/audit-events', shop.merchantCode);
    expect(bySupport.status).toBe(403);
    expect(bySupport.body.error.code).toBe('AUTH_INSUFFICIENT_SCOPE');
    const bad = await owner.api('GET', '/v1/audit-events?startingAfter=nope', shop.merchantCode);
    expect(bad.status).toBe(400);
  });

  it('is append-only: the database refuses UPDATE, DELETE and TRUNCATE of its rows', async () => {
    const db = stack.gateway!.get(DataSource);
    await expect(db.query(`UPDATE dashboard_audit_events SET type = 'x'`)).rejects.toThrow(/append-only/);
    await expect(db.query('DELETE FROM dashboard_audit_events')).rejects.toThrow(/append-only/);
    await expect(db.query('TRUNCATE dashboard_audit_events')).rejects.toThrow(/append-only/);
    expect((await log(owner)).length).toBe(6);
  });
});
