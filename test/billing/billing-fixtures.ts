import { randomUUID } from 'node:crypto';
import { cardData, sdkNonce } from '../payments/payments-fixtures';
import { HttpResult, StackOptions, TestStack } from '../support/stack';
import { queryRows } from '../support/db';

export { cardData, expectError, VISA } from '../payments/payments-fixtures';

/** Sandbox test cards (apps/payments/src/connector/sandbox-cards.ts) that billing tests lean on. */
export const CARDS = {
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  failed: '4000000000000119',
  challenge: '4000002500003155',
  mitInsufficientFunds: '4000000000000341',
  mitFraud: '4000000000004954',
  mitExpired: '4000000000004103',
  // Declined as `retry` on every connection but the default `sandbox` one, approved there.
  cascade: '4000000000000200',
} as const;

/** The billing routes of one merchant and key; POSTs carry a fresh Idempotency-Key unless one is given. */
export class BillingClient {
  constructor(
    readonly stack: TestStack,
    readonly key: string,
    readonly merchantCode: string,
    readonly merchantId: number,
  ) {}

  post(path: string, body: unknown = {}, idempotencyKey: string | null = randomUUID()): Promise<HttpResult> {
    const headers: Record<string, string> = idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey };
    return this.stack.http('POST', path, { key: this.key, body, headers });
  }

  get(path: string): Promise<HttpResult> {
    return this.stack.http('GET', path, { key: this.key });
  }

  patch(path: string, body: unknown): Promise<HttpResult> {
    return this.stack.http('PATCH', path, { key: this.key, body });
  }

  delete(path: string): Promise<HttpResult> {
    return this.stack.http('DELETE', path, { key: this.key });
  }

  async plan(o: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const r = await this.post('/v1/subscription/plan', {
      name: 'Pro',
      interval: 'month',
      amount: 1000,
      currency: 'USD',
      ...o,
    });
    if (r.status !== 201) throw new Error(`plan: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  subscribe(body: Record<string, unknown>, idempotencyKey?: string | null): Promise<HttpResult> {
    return this.post(
      '/v1/subscription',
      { customerEmail: 'jane@example.com', card: cardData(), ...body },
      idempotencyKey,
    );
  }

  async subscription(body: Record<string, unknown>): Promise<Record<string, any>> {
    const r = await this.subscribe(body);
    if (r.status !== 201) throw new Error(`subscription: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  /** A vault token from a CIT purchase of the given card (record mode's precondition). */
  async token(cardNumber = '4111111111111111', currency = 'USD'): Promise<{ token: string; paymentId: string }> {
    const r = await this.post('/v1/payment/purchase', {
      merchantCode: this.merchantCode,
      orderCode: `o-${randomUUID()}`,
      amount: { currency, value: 500, exponent: currency === 'JPY' ? 0 : 2 },
      card: { ...cardData(cardNumber, { tokenize: true }) },
      shopper: { id: 'shopper-1' },
    });
    if (r.status !== 200 || !r.body.token) throw new Error(`token: ${r.status} ${JSON.stringify(r.body)}`);
    return { token: r.body.token.token, paymentId: r.body.id };
  }
}

/** A stack of payments and billing (`o` adds to that) and a sandbox merchant's billing client on it. */
export const billingStack = (o: StackOptions = {}): Promise<[TestStack, BillingClient]> =>
  TestStack.startWith(billingMerchant, { services: ['payments', 'billing'], ...o });

/** A merchant with a sandbox (default) or production private key. */
export async function billingMerchant(
  stack: TestStack,
  environment: 'sandbox' | 'production' = 'sandbox',
  merchantCode?: string,
): Promise<BillingClient> {
  const code = merchantCode ?? (await stack.merchant());
  const merchants = await stack.admin('GET', '/merchants');
  const merchantId = merchants.body.find((m: { merchantCode: string }) => m.merchantCode === code).merchantId;
  const { key } = await stack.key([code], 'private', environment);
  return new BillingClient(stack, key, code, merchantId);
}

export const billingQuery = <T = Record<string, any>>(stack: TestStack, sql: string, params: unknown[] = []) =>
  queryRows<T>(stack.env.BILLING_DATABASE_URL, sql, params);

export const paymentsDb = <T = Record<string, any>>(stack: TestStack, sql: string, params: unknown[] = []) =>
  queryRows<T>(stack.env.PAYMENTS_DATABASE_URL, sql, params);

/** Rows a merchant has in billing and payments: a failed creation must leave both as they were. */
export async function footprint(stack: TestStack, merchantCode: string): Promise<Record<string, number>> {
  const [billing] = await billingQuery(
    stack,
    `SELECT (SELECT count(*) FROM subscriptions WHERE merchant_code = $1)::int AS subscriptions,
            (SELECT count(*) FROM invoices WHERE merchant_code = $1)::int AS invoices`,
    [merchantCode],
  );
  const [payments] = await paymentsDb(
    stack,
    `SELECT (SELECT count(*) FROM stored_cards WHERE merchant_code = $1)::int AS tokens,
            (SELECT count(*) FROM payments WHERE merchant_code = $1 AND status IN ('captured', 'authorized'))::int
              AS approved`,
    [merchantCode],
  );
  return { ...billing, ...payments };
}

/** An SDK nonce for a card of this merchant (client token, then POST /v1/sdk/nonce). */
export async function nonceFor(c: BillingClient, cardNumber = '4111111111111111'): Promise<string> {
  return sdkNonce(c.stack, { key: c.key }, cardData(cardNumber).cardData);
}

export const DAY_MS = 86_400_000;
