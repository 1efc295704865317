import { randomUUID } from 'node:crypto';
import { HttpResult, TestStack } from '../support/stack';
import { queryRows } from '../support/db';
import { usd } from '../support/amounts';

/** A card expiry a few years ahead of real time. */
export const FUTURE = { expiryMonth: '12', expiryYear: String(new Date().getUTCFullYear() + 3) };

export const VISA = '4111111111111111';

export { usd };

export const cardData = (cardNumber = VISA, extra: Record<string, unknown> = {}) => ({
  cardData: { cardNumber, ...FUTURE, cvv: '123', cardholderName: 'Jane Doe', ...extra },
});

export const uid = (): string => randomUUID().slice(0, 8);

/** A valid purchase body; `o` overrides or adds fields. */
export function paymentBody(merchantCode: string, o: Record<string, unknown> = {}): Record<string, unknown> {
  return { merchantCode, orderCode: `order-${uid()}`, amount: usd(1000), card: cardData(), ...o };
}

/** The payment routes of one merchant and key, with a fresh Idempotency-Key per call unless one is given. */
export class PaymentsClient {
  constructor(
    readonly stack: TestStack,
    readonly key: string,
    readonly merchantCode: string,
  ) {}

  private post(path: string, body: unknown, idempotencyKey: string | null = randomUUID()): Promise<HttpResult> {
    const headers: Record<string, string> = idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey };
    return this.stack.http('POST', path, { key: this.key, body, headers });
  }

  purchase(o: Record<string, unknown> = {}, idempotencyKey?: string | null): Promise<HttpResult> {
    return this.post('/v1/payment/purchase', paymentBody(this.merchantCode, o), idempotencyKey);
  }

  authorize(o: Record<string, unknown> = {}, idempotencyKey?: string | null): Promise<HttpResult> {
    return this.post('/v1/payment/authorization', paymentBody(this.merchantCode, o), idempotencyKey);
  }

  operate(
    id: string,
    operation: 'capture' | 'refund' | 'cancel' | 'cancel_or_refund',
    body: Record<string, unknown> = {},
    idempotencyKey?: string | null,
  ): Promise<HttpResult> {
    return this.post(`/v1/payment/${id}/${operation}`, { merchantCode: this.merchantCode, ...body }, idempotencyKey);
  }

  capture(id: string, value: number, idempotencyKey?: string | null): Promise<HttpResult> {
    return this.operate(id, 'capture', { amount: usd(value) }, idempotencyKey);
  }

  refund(id: string, value: number, idempotencyKey?: string | null): Promise<HttpResult> {
    return this.operate(id, 'refund', { amount: usd(value) }, idempotencyKey);
  }

  get(id: string): Promise<HttpResult> {
    return this.stack.http('GET', `/v1/payment/${encodeURIComponent(id)}`, { key: this.key });
  }
}

/** A merchant with a sandbox private key. */
export async function sandboxMerchant(stack: TestStack): Promise<PaymentsClient> {
  const merchantCode = await stack.merchant();
  const { key } = await stack.key([merchantCode]);
  return new PaymentsClient(stack, key, merchantCode);
}

/** Runs a query on the payments service's database (for outbox and row assertions). */
export const paymentsQuery = <T = Record<string, unknown>>(stack: TestStack, sql: string, params: unknown[] = []) =>
  queryRows<T>(stack.env.PAYMENTS_DATABASE_URL, sql, params);

/** The types of a payment's events in the outbox, in the order they were written. */
export const paymentEventTypes = async (stack: TestStack, paymentId: string): Promise<string[]> =>
  (
    await paymentsQuery<{ type: string }>(
      stack,
      "SELECT type FROM outbox WHERE envelope->'data'->>'id' = $1 ORDER BY created_at, id",
      [paymentId],
    )
  ).map((e) => e.type);

/**
 * A single-use nonce for a card (the fields of `cardData`), made as the browser SDK does with `token`, a client
 * token; `{key}` mints one with that private key first (POST /v1/sdk/session).
 */
export async function sdkNonce(
  stack: TestStack,
  token: string | { key: string },
  card: Record<string, unknown>,
): Promise<string> {
  if (typeof token !== 'string') {
    const session = await stack.http('POST', '/v1/sdk/session', { key: token.key, body: {} });
    if (!session.body?.clientToken) throw new Error(`session: ${session.status} ${JSON.stringify(session.body)}`);
    token = session.body.clientToken as string;
  }
  const r = await stack.http('POST', '/v1/sdk/nonce', { key: token, body: { cardData: card } });
  if (r.status !== 201) throw new Error(`nonce: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.nonce;
}

export function expectError(r: HttpResult, status: number, code: string, param?: string): void {
  expect({ status: r.status, code: r.body?.error?.code }).toEqual({ status, code });
  if (param !== undefined) expect(r.body.error.param).toBe(param);
}
