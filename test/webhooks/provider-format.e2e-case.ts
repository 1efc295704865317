import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import { TestStack } from '../support/stack';
import { cardData, PaymentsClient, sandboxMerchant, usd } from '../payments/payments-fixtures';
import { signatureValid } from './emit';
import { ReceivedWebhook, WebhookReceiver, webhookStack } from '../support/webhook-receiver';
import { until } from '../support/wait';

jest.setTimeout(90_000);

/**
 * A shop plugin written from the provider's published webhook format alone (nothing shared with the sender):
 * `X-Therius-Signature: sha256=<hex HMAC-SHA256(secret, raw body)>`, the order found by `data.payment_code`,
 * the work chosen by `event`. It answers 401 without a valid signature and 400 for a body without `event`,
 * as the provider's plugins do.
 */
class ShopPlugin {
  readonly orders = new Map<string, { state: string; events: string[] }>();

  constructor(private readonly secret: () => string) {}

  handle(rawBody: string, headers: Record<string, string | string[] | undefined>): number {
    const header = headers['x-therius-signature'];
    if (typeof header !== 'string' || !this.verified(rawBody, header)) return 401;
    const body = JSON.parse(rawBody) as { event?: string; data?: { payment_code?: string } };
    if (!body.event) return 400;
    const order = body.data?.payment_code ? this.orders.get(body.data.payment_code) : undefined;
    if (!order) return 200;
    order.events.push(body.event);
    switch (body.event) {
      case 'payment.authorized':
        order.state = 'processing';
        break;
      case 'payment.captured':
        order.state = 'paid';
        break;
      case 'payment.refunded':
        order.state = 'refunded';
        break;
      case 'payment.cancelled':
        order.state = 'cancelled';
        break;
      case 'payment.capture_failed':
      case 'payment.refund_failed':
      case 'payment.cancel_failed':
        order.state = 'on_hold';
        break;
    }
    return 200;
  }

  private verified(rawBody: string, header: string): boolean {
    const expected = Buffer.from(createHmac('sha256', this.secret()).update(rawBody).digest('hex'));
    return header
      .split(',')
      .map((entry) => Buffer.from(entry.trim().replace(/^sha256=/, '')))
      .some((given) => given.length === expected.length && timingSafeEqual(given, expected));
  }
}

describe('provider-compatible webhook deliveries, verified by a plugin written from the published format', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;
  let m: PaymentsClient;
  let endpointSecret: string;
  let accountSecret: string;
  const plugin = new ShopPlugin(() => endpointSecret);
  const urlPlugin = new ShopPlugin(() => accountSecret);

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await webhookStack({
      services: ['payments'],
    });
    m = await sandboxMerchant(stack);
    const ep = await stack.http('POST', '/v1/webhook-endpoint', {
      key: m.key,
      body: { url: receiver.url('/plugin'), events: ['*'] },
    });
    endpointSecret = ep.body.secret;
    accountSecret = (await stack.http('GET', '/v1/webhook-secret', { key: m.key })).body.secret;
    receiver.respond = (_n, body, headers, path) => (path === '/url' ? urlPlugin : plugin).handle(body, headers);
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  /** Places an order the plugin knows, keyed by the merchant's own paymentCode. */
  const order = (p: ShopPlugin = plugin) => {
    const paymentCode = `rcpt-${randomUUID().slice(0, 8)}`;
    p.orders.set(paymentCode, { state: 'pending', events: [] });
    return paymentCode;
  };
  const deliveredTo = (path: string, paymentCode: string, event: string) =>
    until(
      () => receiver.received.filter((r) => r.path === path && r.body.includes(`"${paymentCode}"`)),
      (got) => got.some((r) => JSON.parse(r.body).event === event),
    );

  it('authorize, capture and refund reach the order; the same bytes verify under both signatures', async () => {
    const paymentCode = order();
    // Each step waits for its delivery, so the plugin sees them in order.
    const p = (await m.authorize({ paymentCode, amount: usd(1000) })).body;
    await deliveredTo('/plugin', paymentCode, 'payment.authorized');
    expect((await m.capture(p.id, 1000)).body.status).toBe('captured');
    await deliveredTo('/plugin', paymentCode, 'payment.captured');
    expect((await m.refund(p.id, 1000)).body.status).toBe('refunded');
    const got = await deliveredTo('/plugin', paymentCode, 'payment.refunded');
    expect(plugin.orders.get(paymentCode)).toEqual({
      state: 'refunded',
      events: ['payment.authorized', 'payment.captured', 'payment.refunded'],
    });
    for (const r of got) {
      expect(r.status).toBe(200);
      expect(signatureValid(r.headers['webhook-signature'], r.body, endpointSecret)).toBe(true);
      const body = JSON.parse(r.body);
      expect(body).toMatchObject({
        id: r.headers['webhook-id'],
        event: body.type,
        created_at: body.createdAt,
        environment: 'sandbox',
        data: { id: p.id, paymentCode, orderCode: p.orderCode },
      });
      expect(body.data).toMatchObject({ payment_code: paymentCode, order_code: p.orderCode, payment_id: p.id });
    }
  });

  it.each([
    ['capture', '4000000000000309', 'authorize', 'payment.capture_failed', 'authorized'],
    ['refund', '4000000000000317', 'purchase', 'payment.refund_failed', 'captured'],
    ['cancel', '4000000000000325', 'authorize', 'payment.cancel_failed', 'authorized'],
  ] as const)(
    'a %s that fails at the acquirer (test card %s) publishes its failure event with the Payment',
    async (operation, card, create, event, status) => {
      const paymentCode = order();
      const created = await (create === 'authorize' ? m.authorize : m.purchase).call(m, {
        paymentCode,
        card: cardData(card),
      });
      const p = created.body;
      const r = await m.operate(p.id, operation, operation === 'cancel' ? {} : { amount: usd(1000) });
      expect(r.body).toMatchObject({ id: p.id, status: 'failed' });
      const got = await deliveredTo('/plugin', paymentCode, event);
      const failure = got.map((x: ReceivedWebhook) => JSON.parse(x.body)).find((b) => b.event === event);
      expect(failure).toMatchObject({
        type: event,
        data: { id: p.id, status, payment_code: paymentCode, payment_id: p.id },
      });
      expect(plugin.orders.get(paymentCode)?.state).toBe('on_hold');
    },
  );

  it("a payment's webhookUrl gets the same format, signed with the account secret", async () => {
    const paymentCode = order(urlPlugin);
    const p = (await m.authorize({ paymentCode, webhookUrl: receiver.url('/url') })).body;
    expect((await m.capture(p.id, 1000)).body.status).toBe('captured');
    const got = await deliveredTo('/url', paymentCode, 'payment.captured');
    expect(urlPlugin.orders.get(paymentCode)).toEqual({ state: 'paid', events: ['payment.captured'] });
    expect(got[0].status).toBe(200);
    expect(signatureValid(got[0].headers['webhook-signature'], got[0].body, accountSecret)).toBe(true);
  });

  it('the plugin refuses a delivery without its signature or signed with another secret', () => {
    const body = JSON.stringify({ event: 'payment.captured', data: {} });
    expect(plugin.handle(body, {})).toBe(401);
    const wrong = `sha256=${createHmac('sha256', 'whsec_other').update(body).digest('hex')}`;
    expect(plugin.handle(body, { 'x-therius-signature': wrong })).toBe(401);
    const right = `sha256=${createHmac('sha256', endpointSecret).update(body).digest('hex')}`;
    expect(plugin.handle(body, { 'x-therius-signature': right })).toBe(200);
  });
});
