import { randomUUID } from 'node:crypto';
import { CHECKOUT_LINK_FIELDS } from '@app/contracts';
import { cardData, PaymentsClient, sandboxMerchant, sdkNonce } from '../payments/payments-fixtures';
import { HttpResult, TestStack } from '../support/stack';
import { queryRows } from '../support/db';

export const APPROVED = '4111111111111111';
export const DECLINED = '4000000000000002';
export const CHALLENGE = '4000002500003155';
export const CHALLENGE_FAILS = '4000000000003055';

/** A merchant's payment-link routes and the keyless checkout routes of its links. */
export class LinksClient {
  constructor(
    readonly stack: TestStack,
    readonly m: PaymentsClient,
  ) {}

  get key(): string {
    return this.m.key;
  }

  create(body: Record<string, unknown>, idempotencyKey?: string): Promise<HttpResult> {
    const headers: Record<string, string> = idempotencyKey ? { 'idempotency-key': idempotencyKey } : {};
    return this.stack.http('POST', '/v1/payment-link', { key: this.key, body, headers });
  }

  /** Creates a link and answers it; fails the test unless the answer is 201. */
  async link(body: Record<string, unknown> = {}): Promise<any> {
    const r = await this.create({ amount: { currency: 'USD', value: 2500, exponent: 2 }, title: 'Order', ...body });
    if (r.status !== 201) throw new Error(`create link: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  get(id: string): Promise<HttpResult> {
    return this.stack.http('GET', `/v1/payment-link/${encodeURIComponent(id)}`, { key: this.key });
  }

  cancel(id: string): Promise<HttpResult> {
    return this.stack.http('POST', `/v1/payment-link/${encodeURIComponent(id)}/cancel`, { key: this.key, body: {} });
  }
}

export async function linksMerchant(stack: TestStack): Promise<LinksClient> {
  return new LinksClient(stack, await sandboxMerchant(stack));
}

/** A stack of every service, expiring links only when a test asks, and a sandbox merchant's links client on it. */
export const linksStack = (): Promise<[TestStack, LinksClient]> =>
  TestStack.startWith(linksMerchant, {
    services: ['payments', 'payment-links', 'billing'],
    env: { LINK_EXPIRY_SWEEP_MS: '0' },
  });

/** The link-scoped client token the checkout page carries (read from the page, as the browser does). */
export async function checkoutToken(stack: TestStack, linkId: string): Promise<string> {
  const page = await stack.http<string>('GET', `/checkout/${linkId}`);
  const match = /data-client-token="([^"]+)"/.exec(page.body);
  if (!match) throw new Error(`no client token on the checkout page (${page.status})`);
  return match[1];
}

export const nonceFor = (stack: TestStack, token: string, cardNumber = APPROVED): Promise<string> =>
  sdkNonce(stack, token, cardData(cardNumber).cardData);

export function pay(
  stack: TestStack,
  linkId: string,
  token: string,
  body: Record<string, unknown>,
): Promise<HttpResult> {
  return stack.http('POST', `/v1/checkout/${linkId}/pay`, { key: token, body });
}

/** Pays a link as the hosted page does: its token, a fresh nonce for `card`, then the link's pay route. */
export async function payWithCard(
  stack: TestStack,
  linkId: string,
  card = APPROVED,
  extra: Record<string, unknown> = {},
): Promise<HttpResult> {
  const token = await checkoutToken(stack, linkId);
  return pay(stack, linkId, token, { nonce: await nonceFor(stack, token, card), ...extra });
}

export const linksQuery = <T = Record<string, unknown>>(stack: TestStack, sql: string, params: unknown[] = []) =>
  queryRows<T>(stack.env.PAYMENT_LINKS_DATABASE_URL, sql, params);

/** The events a link emitted (outbox of the payment-links database), oldest first. */
export const linkEvents = (stack: TestStack, linkId: string) =>
  linksQuery<{ type: string; createdAt: string; data: any }>(
    stack,
    `SELECT type, envelope->>'createdAt' AS "createdAt", envelope->'data' AS data FROM outbox
     WHERE envelope->'data'->>'id' = $1 ORDER BY created_at, id`,
    [linkId],
  );

export const newKey = (): string => randomUUID();

/**
 * A pay or resume answer as the anonymous payer gets it: a message to show, the link as the merchant's GET
 * has it but only its checkout fields, and of the payment only its receipt, amount, status and 3DS action.
 */
export async function expectPayerAnswer(m: LinksClient, body: any): Promise<any> {
  expect(body.message).toEqual(expect.any(String));
  const merchantView = (await m.get(body.link.id)).body;
  const expected = Object.fromEntries(
    CHECKOUT_LINK_FIELDS.filter((f) => merchantView[f] !== undefined).map((f) => [f, merchantView[f]]),
  );
  expect(body.link).toEqual(expected);
  if (body.payment) {
    const allowed = ['id', 'paymentCode', 'status', 'amount', 'actionRequired'];
    expect(Object.keys(body.payment).filter((k) => !allowed.includes(k))).toEqual([]);
  }
  // Whatever the list of checkout fields, the merchant's own never reach the payer.
  expect(JSON.stringify(body)).not.toMatch(/refusalCode|metadata|usesCount|maxUses|subscriptionPlanId|reference/);
  return merchantView;
}
