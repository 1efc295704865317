import { createServer } from 'node:net';
import { cardData, expectError, PaymentsClient, sandboxMerchant } from '../payments/payments-fixtures';
import { TestStack } from '../support/stack';
import { DashboardClient } from './dashboard-client';

/** A loopback port nothing listens on: a connection to it is refused, as an unreachable provider's would be. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const ADYEN_SECRETS = {
  apiKey: 'AQEyhmfxLI3MaBFLw0m-adyen-secret-AB12',
  merchantAccount: 'AcmeSecretAccountECOM',
  hmacKey: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
};
const STRIPE_SECRETS = { apiKey: 'sk_test_otherMerchantSecret9Zz', webhookSecret: 'whsec_otherMerchantSigning7Yy' };

/**
 * The Connections page's route: the signed-in team's connections of one environment in routing order, with the
 * health the payments service computes (the admin API's), after real payments through the simulator (approved,
 * declined, failed: all answers) and through an Adyen connection whose provider cannot be reached.
 */
describe('dashboard connections and their health (gateway → payments, real Postgres and NATS)', () => {
  let stack: TestStack;
  let shop: PaymentsClient;
  let other: PaymentsClient;
  let support: DashboardClient;

  const list = (client: DashboardClient, merchantCode: string, environment = 'sandbox') =>
    client.call('GET', `/dashboard/api/connections?merchantCode=${merchantCode}&environment=${environment}`);

  beforeAll(async () => {
    stack = await TestStack.start();
    shop = await sandboxMerchant(stack);
    other = await sandboxMerchant(stack);
    const down = await stack.admin('POST', `/merchants/${shop.merchantCode}/connections`, {
      connectionCode: 'adyen-gb',
      connectionName: 'Adyen UK',
      acquirer: 'adyen',
      environment: 'sandbox',
      currencies: ['GBP'],
      methods: ['card'],
      priority: 2000,
      endpoint: `http://127.0.0.1:${await closedPort()}`,
      credentials: ADYEN_SECRETS,
    });
    expect(down.status).toBe(201);
    const theirs = await stack.admin('POST', `/merchants/${other.merchantCode}/connections`, {
      connectionCode: 'stripe-other',
      connectionName: 'Other merchant’s Stripe',
      acquirer: 'stripe',
      environment: 'sandbox',
      currencies: [],
      methods: ['card'],
      priority: 5,
      credentials: STRIPE_SECRETS,
    });
    expect(theirs.status).toBe(201);
    support = await DashboardClient.signedIn(stack, [{ merchantCode: shop.merchantCode, role: 'support' }]);
  });
  afterAll(() => stack?.stop());

  it('answers every connection of the environment in routing order, with health after real payments', async () => {
    const before = await list(support, shop.merchantCode);
    expect(before.status).toBe(200);
    expect(before.body.map((c: { connectionCode: string }) => c.connectionCode)).toEqual(['sandbox', 'adyen-gb']);
    expect(before.body[0].health).toEqual({
      circuit: 'closed',
      lastSuccessAt: null,
      lastFailureAt: null,
      lastFailureReason: null,
      errorRate: 0,
      recentCalls: 0,
    });

    // Through the simulator: an approval, a decline and a processing failure are all answers.
    expect((await shop.purchase()).body).toMatchObject({ status: 'captured', connectionCode: 'sandbox' });
    expect((await shop.purchase({ card: cardData('4000000000009995') })).body.status).toBe('declined');
    expect((await shop.purchase({ card: cardData('4000000000000119') })).body.status).toBe('failed');
    // Through Adyen, pinned: the provider cannot be reached (503) until the circuit opens after five.
    const gbp = { amount: { value: 1000, currency: 'GBP', exponent: 2 }, connectionCode: 'adyen-gb' };
    for (let i = 0; i < 5; i++) expectError(await shop.purchase(gbp), 503, 'SERVICE_UNAVAILABLE');

    const after = await list(support, shop.merchantCode);
    expect(after.status).toBe(200);
    const [simulator, adyen] = after.body;
    expect(simulator).toMatchObject({
      connectionCode: 'sandbox',
      acquirer: 'sandbox',
      environment: 'sandbox',
      isDefault: true,
      priority: 1000,
      health: {
        circuit: 'closed',
        lastSuccessAt: expect.any(String),
        lastFailureAt: null,
        lastFailureReason: null,
        errorRate: 0,
        recentCalls: 3,
      },
    });
    expect(simulator).not.toHaveProperty('credentials');
    expect(adyen).toMatchObject({
      connectionCode: 'adyen-gb',
      connectionName: 'Adyen UK',
      acquirer: 'adyen',
      currencies: ['GBP'],
      isDefault: false,
      credentials: {
        apiKeyLast4: ADYEN_SECRETS.apiKey.slice(-4),
        merchantAccountLast4: ADYEN_SECRETS.merchantAccount.slice(-4),
        hmacKeyLast4: ADYEN_SECRETS.hmacKey.slice(-4),
        updatedAt: expect.any(String),
      },
      health: {
        circuit: 'open',
        lastSuccessAt: null,
        lastFailureAt: expect.any(String),
        lastFailureReason: 'unreachable',
        errorRate: 1,
        recentCalls: 5,
      },
    });
    // The payments service's own health, as the admin API shows it: the dashboard computes none of its own.
    const admin = await stack.admin('GET', `/merchants/${shop.merchantCode}/connections?environment=sandbox`);
    expect(after.body.map((c: { health: unknown }) => c.health)).toEqual(
      admin.body.map((c: { health: unknown }) => c.health),
    );
  });

  it('shows no secret: the last four characters only, no endpoint, no key id', async () => {
    const r = await list(support, shop.merchantCode);
    const text = JSON.stringify(r.body);
    for (const secret of Object.values(ADYEN_SECRETS)) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice(0, -4));
    }
    expect(text).not.toContain('127.0.0.1');
    expect(Object.keys(r.body[1].credentials).sort()).toEqual(
      ['apiKeyLast4', 'hmacKeyLast4', 'merchantAccountLast4', 'updatedAt'].sort(),
    );
    expect(r.body[1]).not.toHaveProperty('endpoint');
  });

  it('never shows another merchant’s connections; production has none until the operator adds one', async () => {
    const refused = await list(support, other.merchantCode);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('MERCHANT_MISMATCH');
    expect(JSON.stringify(refused.body)).not.toContain('stripe-other');
    const mine = JSON.stringify((await list(support, shop.merchantCode)).body);
    expect(mine).not.toContain('stripe-other');
    expect(mine).not.toContain(STRIPE_SECRETS.apiKey.slice(-4));

    // Their own team sees theirs, with no secret either.
    const theirOwner = await DashboardClient.signedIn(stack, [{ merchantCode: other.merchantCode, role: 'owner' }]);
    const theirs = await list(theirOwner, other.merchantCode);
    expect(theirs.status).toBe(200);
    expect(theirs.body.map((c: { connectionCode: string }) => c.connectionCode)).toEqual(['stripe-other', 'sandbox']);
    for (const secret of Object.values(STRIPE_SECRETS)) expect(JSON.stringify(theirs.body)).not.toContain(secret);

    const production = await list(support, shop.merchantCode, 'production');
    expect(production.status).toBe(200);
    expect(production.body).toEqual([]);
  });

  it('every role reads it; without a session, or with a bad environment, it is refused in the envelope', async () => {
    for (const role of ['owner', 'developer'] as const) {
      const member = await DashboardClient.signedIn(stack, [{ merchantCode: shop.merchantCode, role }]);
      expect((await list(member, shop.merchantCode)).status).toBe(200);
    }
    const anonymous = await new DashboardClient(stack).call(
      'GET',
      `/dashboard/api/connections?merchantCode=${shop.merchantCode}&environment=sandbox`,
    );
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('AUTH_MISSING');
    const bad = await list(support, shop.merchantCode, 'staging');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_FAILED', param: 'environment' });
  });
});
