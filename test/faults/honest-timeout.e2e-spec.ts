import { randomUUID } from 'node:crypto';
import { expectError, paymentBody, PaymentsClient, sandboxMerchant } from '../payments/payments-fixtures';
import { SwitchableAcquirer } from '../payments/switchable-acquirer';
import { TestStack } from '../support/stack';

const UNKNOWN = /did not answer in time; the outcome is unknown .*retry with the same Idempotency-Key/;
const NOTHING_RECORDED = /acquirer did not answer in time; nothing was recorded/;

/**
 * The two 504 UPSTREAM_TIMEOUT answers of a payment route: the acquirer's deadline inside payments (nothing was
 * recorded) and the gateway's own RPC timeout (the outcome is unknown: the payment may have been recorded).
 */
describe('an honest 504: the gateway timeout says the outcome is unknown, the acquirer timeout that nothing was recorded', () => {
  const acquirer = new SwitchableAcquirer();
  let stack: TestStack;
  let m: PaymentsClient;

  beforeAll(async () => {
    // The gateway gives up before the payments service gives up on the acquirer.
    stack = await TestStack.start({
      connectors: [acquirer],
      env: { RPC_TIMEOUT_MS: '600', ACQUIRER_TIMEOUT_MS: '5000' },
    });
    m = await sandboxMerchant(stack);
  });
  afterEach(() => {
    acquirer.authorizations = 'sandbox';
    acquirer.answerHung();
  });
  afterAll(() => stack.stop());

  it('a purchase that commits after the gateway gave up: 504 "outcome unknown", and the same key answers the payment', async () => {
    acquirer.authorizations = 'hangs';
    const key = randomUUID();
    const body = paymentBody(m.merchantCode);
    const first = await stack.http('POST', '/v1/payment/purchase', {
      key: m.key,
      body,
      headers: { 'idempotency-key': key },
    });
    expectError(first, 504, 'UPSTREAM_TIMEOUT');
    expect(first.body.error.message).toMatch(UNKNOWN);
    expect(first.body.error.message).not.toMatch(/nothing was recorded/);

    // The acquirer answers late and the payments service records the payment after all.
    acquirer.authorizations = 'sandbox';
    acquirer.answerHung();
    const list = async () =>
      (
        await stack.http('GET', `/v1/payment?orderCode=${body.orderCode}&merchantCode=${m.merchantCode}`, {
          key: m.key,
        })
      ).body as Array<{ id: string; status: string }>;
    for (let i = 0; i < 50 && (await list()).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    const recorded = await list();
    expect(recorded).toHaveLength(1);

    // Retrying with the same key answers that payment; nothing is charged twice.
    const retry = await stack.http('POST', '/v1/payment/purchase', {
      key: m.key,
      body,
      headers: { 'idempotency-key': key },
    });
    expect(retry.status).toBe(200);
    expect(retry.body.id).toBe(recorded[0].id);
    expect(await list()).toHaveLength(1);
  });

  it('the OpenAPI of every keyed route says a 504 outcome is unknown; the money routes also name the acquirer 504', async () => {
    const doc = (await stack.http('GET', '/openapi.json')).body;
    const keyedRoutes: string[] = [];
    const moneyRoutes: string[] = [];
    for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
      const post = methods.post;
      const keyed = post?.parameters?.some((p: { name: string }) => /^idempotency-key$/i.test(p.name));
      // The dashboard routes are answered by the gateway itself (its own database, no service call): no 504.
      // The sandbox clock's 504 says what is known of it instead: the clock did not move.
      const ownRoute = ['dashboard', 'sandbox'].some((tag) => post?.tags?.includes(tag));
      if (!keyed || ownRoute) continue;
      keyedRoutes.push(path);
      const description = String(post.responses?.['504']?.description);
      expect({ path, description }).toEqual({ path, description: expect.stringMatching(/outcome is unknown/) });
      expect(description).toMatch(/retry with the same Idempotency-Key/);
      if (path.startsWith('/v1/payment/')) {
        moneyRoutes.push(path);
        expect({ path, description }).toEqual({ path, description: expect.stringMatching(/nothing was recorded/) });
      }
    }
    expect(moneyRoutes.sort()).toEqual([
      '/v1/payment/authorization',
      '/v1/payment/purchase',
      '/v1/payment/{id}/cancel',
      '/v1/payment/{id}/cancel_or_refund',
      '/v1/payment/{id}/capture',
      '/v1/payment/{id}/refund',
    ]);
    // Subscriptions, their operations, usage, links and webhooks are keyed too, and say the same of the gateway's 504.
    expect(keyedRoutes).toEqual(
      expect.arrayContaining([
        '/v1/subscription',
        '/v1/payment-link',
        '/v1/webhook-endpoint',
        '/v1/webhook-endpoint/{id}/test',
        '/v1/webhook-secret/roll',
      ]),
    );
  });
});

describe("an honest 504: the acquirer's own deadline keeps its message", () => {
  const acquirer = new SwitchableAcquirer();
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start({
      connectors: [acquirer],
      env: { RPC_TIMEOUT_MS: '5000', ACQUIRER_TIMEOUT_MS: '300' },
    });
  });
  afterAll(async () => {
    acquirer.answerHung();
    await stack.stop();
  });

  it('nothing was recorded: retry with the same key', async () => {
    const m = await sandboxMerchant(stack);
    acquirer.authorizations = 'hangs';
    const r = await m.purchase();
    expectError(r, 504, 'UPSTREAM_TIMEOUT');
    expect(r.body.error.message).toMatch(NOTHING_RECORDED);
    expect(r.body.error.message).not.toMatch(UNKNOWN);
  });
});
