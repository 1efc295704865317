import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { HttpResult, TestStack } from '../support/stack';

/** A card expiry a few years ahead of real time. */
export const FUTURE = { expiryMonth: '12', expiryYear: String(new Date().getUTCFullYear() + 3) };

export const VISA = '4111111111111111';

export const usd = (value: number) => ({ currency: 'USD', value, exponent: 2 });

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
export async function paymentsQuery<T = Record<string, unknown>>(
  stack: TestStack,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new Client({ connectionString: stack.env.PAYMENTS_DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

export function expectError(r: HttpResult, status: number, code: string, param?: string): void {
  expect({ status: r.status, code: r.body?.error?.code }).toEqual({ status, code });
  if (param !== undefined) expect(r.body.error.param).toBe(param);
}
