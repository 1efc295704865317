import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectError, uid } from '../payments/payments-fixtures';
import { queryRows } from '../support/db';
import { apiOperations } from '../support/openapi-routes';
import { HttpResult, TestStack } from '../support/stack';
import { ADMIN_TOKEN } from '../support/run-state';
import { until } from '../support/wait';
import { WebhookReceiver, webhookStack } from '../support/webhook-receiver';

jest.setTimeout(120_000);

/** One request of a route: variant 0 is the request, variant 1 the same route with another body. */
interface Request {
  path: string;
  body?: unknown;
}

/** How a route is exercised: its two requests, and how many of what it makes exist (when it creates). */
interface Scenario {
  send(variant: 0 | 1): Request | Promise<Request>;
  count?: () => Promise<number>;
  /** The answer shows a secret: the key's stored row must not hold it. */
  secret?: (body: any) => string;
  /** A field the first answer alone shows (a credential stored hashed): a replay answers the rest. */
  shownOnce?: string;
  admin?: boolean;
}

/** Routes that change nothing a retry could duplicate, or that are made safe another way: why, for each. */
const EXEMPT: Record<string, string> = {
  'PUT /v1/admin/merchants/{merchantCode}/allowed-origins': 'a full replacement: the same request twice is one change',
  'POST /v1/sdk/session': 'issues a short-lived browser token and keeps nothing a retry duplicates',
  'POST /v1/sdk/nonce': 'a browser call without a private key; an unused nonce expires on its own',
  'POST /v1/payment/resume': 'keyless 3DS return: the session decides once, a second resume answers its outcome',
  'POST /v1/3ds/challenge/{sessionId}': 'the card scheme’s callback for one session, decided once',
  'POST /v1/subscription/{id}/card-update-link':
    'a repeat with the same key answers the same link (test/billing/card-update-browser.e2e-spec.ts)',
  'POST /v1/card-update/{token}': 'the customer’s hosted page: the link works once, a second use is refused',
  'PUT /v1/subscription/settings/card-update-emails': 'sets one switch: the same request twice is one change',
  'POST /v1/3ds/return/{sessionId}':
    'the provider’s 3DS return for one session, decided once; a reload shows the outcome',
  'POST /v1/connectors/{connectionId}/webhooks':
    'a provider’s signed notification: de-duplicated on the provider’s event id, not on an Idempotency-Key',
  'POST /v1/sandbox/3ds/{sessionId}': 'sandbox stand-in for the 3DS callback, decided once per session',
  'POST /v1/sandbox/payment/{id}/settle': 'settles a payment once: a second call answers the settled payment',
  'POST /v1/checkout/{id}/pay': 'hosted page: the link’s checkout attempt is the key (one payment per link)',
  'POST /v1/checkout/{id}/resume': 'hosted page: resumes the link’s one 3DS session',
  'POST /v1/subscription/usage/batch': 'each event carries its own idempotencyKey',
  'DELETE /v1/admin/dashboard-users/{id}': 'removes a user once: a second removal answers 404 and changes nothing',
  'POST /dashboard/api/invitations/accept': 'the invitation is single-use: a retry answers 404 and changes nothing',
  'POST /dashboard/api/session': 'a sign-in: each answer sets its own cookie; an unused session idles out',
  'DELETE /dashboard/api/session': 'sign-out: a session ends once',
  'DELETE /dashboard/api/sessions': 'sign-out everywhere: sessions end once',
  'POST /dashboard/api/totp': 'a new set-up replaces the pending one; the active setting changes only on confirm',
  'POST /dashboard/api/totp/confirm': 'takes the pending secret once: a retry finds none and answers 409',
  'POST /dashboard/api/totp/remove': 'turns TOTP off once: a retry answers 409 and writes no second event',
  'DELETE /dashboard/api/keys/{id}': 'revoking a revoked key changes nothing',
  'POST /dashboard/api/team': 'inviting a member again answers 409 INVALID_STATE and changes nothing',
  'PATCH /dashboard/api/team/{id}': 'sets a role: the same request twice is one change (the second writes no event)',
  'DELETE /dashboard/api/team/{id}': 'removes a member once: a second removal answers 404 and changes nothing',
  'POST /dashboard/api/password-resets': 'emails a one-time link, at most 3 an hour per account',
  'POST /dashboard/api/password-resets/confirm': 'the link is single-use: a retry answers 404 and changes nothing',
};

/** Routes that honoured the key before, with their own suites (replay, 409 and 422). */
const COVERED_BY: Record<string, string> = {
  'POST /v1/payment/purchase': 'test/payments/idempotency.e2e-case.ts',
  'POST /dashboard/api/keys': 'test/dashboard/dashboard-roles.e2e-case.ts',
  'POST /v1/payment/authorization': 'test/payments/idempotency.e2e-case.ts',
  'POST /v1/payment/{id}/capture': 'test/payments/idempotency.e2e-case.ts',
  'POST /v1/payment/{id}/refund': 'test/payments/idempotency.e2e-case.ts',
  'POST /v1/payment/{id}/cancel': 'test/payments/idempotency.e2e-case.ts',
  'POST /v1/payment/{id}/cancel_or_refund': 'test/payments/idempotency.e2e-case.ts',
  'POST /v1/payment-link': 'test/payment-links/links.e2e-case.ts',
  'POST /v1/subscription': 'test/billing/idempotency.e2e-case.ts',
  'POST /v1/subscription/{id}/cancel': 'test/billing/idempotency.e2e-case.ts',
  'POST /v1/subscription/{id}/pause': 'test/billing/idempotency.e2e-case.ts',
  'POST /v1/subscription/{id}/resume': 'test/billing/idempotency.e2e-case.ts',
  'POST /v1/subscription/{id}/change-plan': 'test/billing/idempotency.e2e-case.ts',
  'POST /v1/subscription/{id}/payment-method': 'test/billing/idempotency.e2e-case.ts',
  'POST /v1/subscription/{id}/retry-payment': 'test/billing/idempotency.e2e-case.ts',
  'POST /v1/subscription/usage': 'test/billing/usage.e2e-case.ts',
  'POST /v1/admin/merchants/{merchantCode}/subscriptions/{id}/retry-parked-renewal':
    'test/billing/usage-poison.e2e-case.ts',
};

/** Idempotency-Key on every route that creates or changes something (docs/api.md, Idempotency). */
describe('Idempotency-Key on every creating route', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;
  let merchant: string;
  let key: string;
  const scenarios: Record<string, Scenario> = {};

  const send = (method: string, s: Scenario, r: Request, idempotencyKey: string): Promise<HttpResult> =>
    stack.http(method, r.path, {
      key: s.admin ? ADMIN_TOKEN : key,
      port: s.admin ? 'internal' : 'public',
      body: r.body,
      headers: { 'idempotency-key': idempotencyKey },
    });
  const ok = async (method: string, path: string, body?: unknown): Promise<any> => {
    const r = await stack.http(method, path, { key, body });
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const gatewayRows = (sql: string, params: unknown[] = []) => queryRows(stack.env.GATEWAY_DATABASE_URL, sql, params);
  const webhooksRows = (sql: string, params: unknown[] = []) => queryRows(stack.env.WEBHOOKS_DATABASE_URL, sql, params);
  const billingCount = async (table: string) =>
    Number((await queryRows(stack.env.BILLING_DATABASE_URL, `SELECT count(*) AS n FROM ${table}`))[0].n);
  const endpoint = async () => ok('POST', '/v1/webhook-endpoint', { url: receiver.url(`/${uid()}`), events: ['*'] });
  const plan = async () =>
    ok('POST', '/v1/subscription/plan', { name: 'P', interval: 'month', amount: 100, currency: 'USD' });

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await webhookStack({
      services: ['payments', 'billing', 'payment-links'],
      env: { WEBHOOK_MAX_ENDPOINTS: '100' },
    });
    merchant = await stack.merchant();
    key = (await stack.key([merchant])).key;
    const endpoints = async () =>
      Number((await webhooksRows('SELECT count(*) AS n FROM webhook_endpoints WHERE deleted_at IS NULL'))[0].n);
    Object.assign(scenarios, {
      'POST /v1/subscription/plan': {
        send: (v) => ({
          path: '/v1/subscription/plan',
          body: { name: `P${v}`, interval: 'month', amount: 100, currency: 'USD' },
        }),
        count: () => billingCount('plans'),
      },
      'PATCH /v1/subscription/plan/{id}': {
        send: async () => ({ path: `/v1/subscription/plan/${(await plan()).id}`, body: { name: 'renamed' } }),
      },
      'DELETE /v1/subscription/plan/{id}': {
        send: async () => ({ path: `/v1/subscription/plan/${(await plan()).id}` }),
      },
      'PUT /v1/subscription/recovery-policy': {
        send: (v) => ({ path: '/v1/subscription/recovery-policy', body: { maxRetries: v ? 2 : 3 } }),
      },
      'POST /v1/subscription/meter': {
        send: (v) => ({
          path: '/v1/subscription/meter',
          body: {
            code: `m-${uid()}`,
            name: `M${v}`,
            aggregation: 'sum',
            pricing: { scheme: 'per_unit', unitAmount: 5 },
          },
        }),
        count: () => billingCount('meters'),
      },
      'POST /v1/webhook-endpoint': {
        send: () => ({ path: '/v1/webhook-endpoint', body: { url: receiver.url(`/${uid()}`), events: ['*'] } }),
        count: endpoints,
        secret: (body) => body.secret,
      },
      'PATCH /v1/webhook-endpoint/{id}': {
        send: async () => ({ path: `/v1/webhook-endpoint/${(await endpoint()).id}`, body: { description: 'x' } }),
      },
      'DELETE /v1/webhook-endpoint/{id}': {
        send: async () => ({ path: `/v1/webhook-endpoint/${(await endpoint()).id}` }),
      },
      'POST /v1/webhook-endpoint/{id}/roll-secret': {
        send: async () => ({ path: `/v1/webhook-endpoint/${(await endpoint()).id}/roll-secret`, body: {} }),
        secret: (body) => body.secret,
      },
      'POST /v1/webhook-endpoint/{id}/test': {
        send: async () => ({ path: `/v1/webhook-endpoint/${(await endpoint()).id}/test`, body: {} }),
      },
      'POST /v1/webhook-endpoint/{id}/deliveries/{deliveryId}/resend': {
        send: async () => {
          const target = await endpoint();
          receiver.respond = () => 500;
          const test = await ok('POST', `/v1/webhook-endpoint/${target.id}/test`, {});
          // Resent once its try has failed.
          await until(
            () => ok('GET', `/v1/webhook-endpoint/${target.id}/deliveries`),
            (log: Array<{ status: string }>) => log.some((d) => d.status !== 'pending'),
          );
          return { path: `/v1/webhook-endpoint/${target.id}/deliveries/${test.id}/resend`, body: {} };
        },
      },
      'POST /v1/webhook-secret/roll': {
        send: (v) => ({ path: '/v1/webhook-secret/roll', body: v ? { expiresInSeconds: 60 } : {} }),
        secret: (body) => body.secret,
      },
      'POST /v1/payment-link/{id}/cancel': {
        send: async () => {
          const amount = { currency: 'USD', value: 100, exponent: 2 };
          const link = await ok('POST', '/v1/payment-link', { amount, title: 'Order' });
          return { path: `/v1/payment-link/${link.id}/cancel`, body: {} };
        },
      },
      'POST /v1/sandbox/clock/advance': {
        send: (v) => ({ path: '/v1/sandbox/clock/advance', body: { by: v ? 'P2D' : 'P1D' } }),
      },
      'POST /v1/admin/merchants': {
        admin: true,
        send: () => ({ path: '/v1/admin/merchants', body: { merchantCode: `m${uid()}`, name: 'M' } }),
        count: async () => Number((await gatewayRows('SELECT count(*) AS n FROM merchants'))[0].n),
      },
      'POST /v1/admin/keys': {
        admin: true,
        send: (v) => ({
          path: '/v1/admin/keys',
          body: { merchantCodes: [merchant], type: v ? 'public' : 'private', environment: 'sandbox' },
        }),
        count: async () => Number((await gatewayRows('SELECT count(*) AS n FROM api_keys'))[0].n),
        secret: (body) => body.key,
        shownOnce: 'key',
      },
      'POST /v1/admin/dashboard-users': {
        admin: true,
        send: (v) => ({
          path: '/v1/admin/dashboard-users',
          body: {
            email: `u${uid()}@shop.example`,
            memberships: [{ merchantCode: merchant, role: v ? 'owner' : 'support' }],
          },
        }),
        count: async () => Number((await gatewayRows('SELECT count(*) AS n FROM dashboard_users'))[0].n),
        secret: (body) => body.inviteUrl.split('#/invite/')[1],
        shownOnce: 'inviteUrl',
      },
      'DELETE /v1/admin/keys/{id}': {
        admin: true,
        send: async () => ({ path: `/v1/admin/keys/${(await stack.key([merchant])).id}` }),
      },
      'POST /v1/admin/merchants/{merchantCode}/connections': {
        admin: true,
        send: (v) => ({
          path: `/v1/admin/merchants/${merchant}/connections`,
          body: {
            connectionCode: `c-${uid()}`,
            connectionName: `C${v}`,
            acquirer: 'sandbox',
            environment: 'sandbox',
            currencies: ['USD'],
            methods: ['card'],
            priority: 10,
          },
        }),
      },
    } satisfies Record<string, Scenario>);
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it('every route that creates or changes something honours the key, or says why it needs none', async () => {
    const changing = (await apiOperations(stack))
      .filter((op) => op.method !== 'GET')
      .map((op) => `${op.method} ${op.path}`);
    const unaccounted = changing.filter((r) => !(r in scenarios) && !(r in EXEMPT) && !(r in COVERED_BY));
    expect(unaccounted).toEqual([]);
    // No stale entry: each names a route that exists.
    expect(
      [...Object.keys(scenarios), ...Object.keys(EXEMPT), ...Object.keys(COVERED_BY)].filter(
        (r) => !changing.includes(r),
      ),
    ).toEqual([]);
    for (const [route, file] of Object.entries(COVERED_BY)) {
      const path = join(__dirname, '..', '..', file);
      expect({
        route,
        covered: existsSync(path) && readFileSync(path, 'utf8').includes('IDEMPOTENCY_KEY_REUSED'),
      }).toEqual({ route, covered: true });
    }
    // Each route that honours it says so in the document the typed client is built from.
    const doc = (await stack.http('GET', '/openapi.json', { port: 'internal' })).body;
    for (const route of [...Object.keys(scenarios), ...Object.keys(COVERED_BY)]) {
      const [method, path] = route.split(' ');
      const params: Array<{ name: string }> = doc.paths[path][method.toLowerCase()].parameters ?? [];
      expect({ route, header: params.some((p) => p.name === 'Idempotency-Key') }).toEqual({ route, header: true });
    }
  });

  it.each([
    'POST /v1/subscription/plan',
    'PATCH /v1/subscription/plan/{id}',
    'DELETE /v1/subscription/plan/{id}',
    'POST /v1/subscription/meter',
    'PUT /v1/subscription/recovery-policy',
    'POST /v1/webhook-endpoint',
    'PATCH /v1/webhook-endpoint/{id}',
    'DELETE /v1/webhook-endpoint/{id}',
    'POST /v1/webhook-endpoint/{id}/roll-secret',
    'POST /v1/webhook-endpoint/{id}/test',
    'POST /v1/webhook-endpoint/{id}/deliveries/{deliveryId}/resend',
    'POST /v1/webhook-secret/roll',
    'POST /v1/payment-link/{id}/cancel',
    'POST /v1/sandbox/clock/advance',
    'POST /v1/admin/merchants',
    'POST /v1/admin/keys',
    'POST /v1/admin/dashboard-users',
    'DELETE /v1/admin/keys/{id}',
    'POST /v1/admin/merchants/{merchantCode}/connections',
  ])('%s: the same key replays the first answer and makes nothing more; another body is 422', async (route) => {
    const s = scenarios[route];
    const method = route.split(' ')[0];
    const idempotencyKey = randomUUID();
    const request = await s.send(0);
    const before = await s.count?.();
    const first = await send(method, s, request, idempotencyKey);
    expect(first.status).toBeLessThan(300);
    const again = await send(method, s, request, idempotencyKey);
    const replayed = s.shownOnce ? { ...first.body, [s.shownOnce]: undefined } : first.body;
    if (s.shownOnce) expect(first.body[s.shownOnce]).toEqual(expect.any(String));
    expect({ status: again.status, body: again.body }).toEqual({ status: first.status, body: replayed });
    if (s.count) expect(await s.count()).toBe(before! + 1);
    // Another body, or the same route on another resource (its id is part of the request).
    expectError(await send(method, s, await s.send(1), idempotencyKey), 422, 'IDEMPOTENCY_KEY_REUSED');
    if (s.secret) {
      // The webhooks service keeps the keys of the webhook routes; the gateway those of its own (admin) routes.
      const rows = await (route.includes(' /v1/webhook') ? webhooksRows : gatewayRows)(
        'SELECT response_body::text AS body FROM idempotency_keys WHERE idempotency_key = $1',
        [idempotencyKey],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].body).not.toContain(s.secret(first.body));
    }
  });
});
