import { HttpResult, TestStack } from '../support/stack';
import { BillingClient, billingMerchant, billingQuery, paymentsDb } from './billing-fixtures';

/** The stack of the tests of billing over time: every service, renewals run only by clock advances. */
export const timeStack = (): Promise<TestStack> =>
  TestStack.start({ services: ['payments', 'payment-links', 'billing'], env: { RENEWAL_POLL_MS: '0' } });

/** A sandbox merchant whose clock the test moves (each test gets its own merchant, so its own clock). */
export class TimeClient {
  constructor(readonly m: BillingClient) {}

  static async start(stack: TestStack, to?: string): Promise<TimeClient> {
    const c = new TimeClient(await billingMerchant(stack));
    if (to) await c.advance({ to });
    return c;
  }

  async advance(body: { to?: string; by?: string }): Promise<string> {
    const r = await this.m.stack.http('POST', '/v1/sandbox/clock/advance', { key: this.m.key, body });
    if (r.status !== 200) throw new Error(`advance: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.now;
  }

  async sub(id: string): Promise<Record<string, any>> {
    return (await this.m.get(`/v1/subscription/${id}?merchantCode=${this.m.merchantCode}`)).body;
  }

  /** A subscription's invoices, oldest first. */
  async invoices(id: string): Promise<Array<Record<string, any>>> {
    return (
      (await this.m.get(`/v1/subscription/${id}/invoice?limit=100`)).body as Array<Record<string, any>>
    ).reverse();
  }

  async invoice(id: string): Promise<Record<string, any>> {
    return (await this.m.get(`/v1/subscription/invoice/${id}`)).body;
  }

  op(id: string, verb: string, body: Record<string, unknown> = {}): Promise<HttpResult> {
    return this.m.post(`/v1/subscription/${id}/${verb}`, { merchantCode: this.m.merchantCode, ...body });
  }

  /** Subscription event types of the outbox, oldest first. */
  async events(id: string): Promise<string[]> {
    const rows = await billingQuery<{ type: string }>(
      this.m.stack,
      `SELECT envelope->>'type' AS type FROM outbox
        WHERE envelope->'data'->>'id' = $1 OR envelope->'data'->>'subscriptionId' = $1 ORDER BY id`,
      [id],
    );
    return rows.map((r) => r.type);
  }

  /** The renewal charges payments made for a subscription (order code inv_<invoice>_<attempt>), oldest first. */
  async renewalPayments(id: string): Promise<Array<{ value: number; status: string; orderCode: string }>> {
    const invoices = await billingQuery<{ id: string }>(
      this.m.stack,
      'SELECT id FROM invoices WHERE subscription_id = $1',
      [id],
    );
    return paymentsDb(
      this.m.stack,
      `SELECT amount_value::int AS value, status, order_code AS "orderCode" FROM payments
        WHERE order_code LIKE ANY($1::text[]) ORDER BY created_at`,
      [invoices.map((i) => `inv_${i.id}_%`)],
    );
  }
}

export const periods = (invoices: Array<Record<string, any>>): Array<[string, string]> =>
  invoices.map((i) => [i.periodStart.slice(0, 10), i.periodEnd.slice(0, 10)]);

/** An RFC 3339 time to the minute (a sandbox clock keeps running after an advance). */
export const minute = (iso: string): string => iso.slice(0, 16);
