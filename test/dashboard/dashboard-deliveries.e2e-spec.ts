import { Browser } from 'playwright-core';
import { launchBrowser, shot } from '../payment-links/browser';
import { PaymentsClient, sandboxMerchant } from '../payments/payments-fixtures';
import { TestStack } from '../support/stack';
import { waitUntil } from '../support/wait';
import { WebhookReceiver, webhookStack } from '../support/webhook-receiver';
import { signedInBrowser } from './browser-session';

const waitFor = (check: () => Promise<boolean | undefined> | boolean | undefined) =>
  waitUntil('the page or the receiver to show it', async () => Boolean(await check()));

type Delivery = {
  id: string;
  eventId: string;
  eventType: string;
  attempt: number;
  status: string;
  deliveryStatus: string;
  resendable: boolean;
  object: { type: string; id: string } | null;
};

/**
 * Support sees what a delivery is for (event type, event id, object) and gets Resend only where the API would
 * act on it: on a delivery's newest try, while it has not succeeded and its endpoint is enabled; from the
 * endpoint's log and from the event's page.
 */
describe('webhook deliveries in the dashboard (browser)', () => {
  let stack: TestStack;
  let shop: PaymentsClient;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let endpointId: string;

  beforeAll(async () => {
    stack = await webhookStack();
    shop = await sandboxMerchant(stack);
    receiver = await WebhookReceiver.start();
    browser = await launchBrowser();
    const endpoint = await stack.http('POST', '/v1/webhook-endpoint', {
      key: shop.key,
      body: { url: receiver.url('/hooks'), events: ['payment.captured'] },
    });
    expect(endpoint.status).toBe(201);
    endpointId = endpoint.body.id;
    // Every event's first try fails; later tries succeed.
    const seen = new Set<unknown>();
    receiver.respond = (_n, _body, headers) => {
      const first = !seen.has(headers['webhook-id']);
      seen.add(headers['webhook-id']);
      return first ? 500 : 200;
    };
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await stack?.stop();
  });

  const log = async (): Promise<Delivery[]> =>
    (await stack.http('GET', `/v1/webhook-endpoint/${endpointId}/deliveries?limit=100`, { key: shop.key })).body;

  /** A purchase whose payment.captured failed its first try; answers the payment and its event id. */
  async function failedOnce(): Promise<{ paymentId: string; eventId: string }> {
    const paid = await shop.purchase();
    await waitFor(() => receiver.received.some((r) => r.status === 500 && r.body.includes(paid.body.id)));
    const eventId = String(receiver.received.find((r) => r.body.includes(paid.body.id))!.headers['webhook-id']);
    return { paymentId: paid.body.id, eventId };
  }

  it('every row names its event and object; resend only on the newest try of an unfinished delivery', async () => {
    const a = await failedOnce();
    const b = await failedOnce();
    const rows = (await log()).filter((d) => d.eventId === a.eventId);
    expect(rows.map((d) => [d.attempt, d.status, d.deliveryStatus, d.resendable])).toEqual([
      [2, 'pending', 'pending', true],
      [1, 'failed', 'pending', false],
    ]);
    expect(rows[0].object).toEqual({ type: 'payment', id: a.paymentId });

    const { context, page, problems } = await signedInBrowser(stack, browser, shop.merchantCode, 'support');
    await page.goto(`${stack.url}/dashboard#/webhooks/${endpointId}`);
    const table = page.getByRole('table', { name: 'Delivery log' });
    await table.waitFor();
    const text = await table.textContent();
    for (const x of [a, b]) {
      expect(text).toContain(x.eventId);
      expect(text).toContain(x.paymentId);
    }
    // One button per unfinished delivery, each naming its event.
    await expect(table.getByRole('button', { name: /^Resend / }).count()).resolves.toBe(2);
    await shot(page, 'dashboard-delivery-log-context');

    await table.getByRole('button', { name: `Resend payment.captured ${a.eventId}` }).click();
    await page.getByRole('button', { name: `Confirm: Resend payment.captured ${a.eventId}` }).click();
    await waitFor(() => receiver.received.some((r) => r.status === 200 && r.headers['webhook-id'] === a.eventId));
    await waitFor(async () => (await log()).some((d) => d.eventId === a.eventId && d.deliveryStatus === 'succeeded'));
    await page.getByRole('button', { name: 'Refresh the log' }).click();
    // Delivered: no resend for it any more (the API would answer 409), the other one keeps its button.
    await waitFor(async () => (await table.getByRole('button', { name: /^Resend / }).count()) === 1);
    await expect(table.getByRole('button', { name: `Resend payment.captured ${b.eventId}` }).count()).resolves.toBe(1);
    const delivered = (await log()).filter((d) => d.eventId === a.eventId);
    expect(delivered.every((d) => !d.resendable)).toBe(true);
    const refused = await stack.http(
      'POST',
      `/v1/webhook-endpoint/${endpointId}/deliveries/${delivered[0].id}/resend`,
      { key: shop.key, body: {}, headers: { 'idempotency-key': crypto.randomUUID() } },
    );
    expect(refused.status).toBe(409);
    await shot(page, 'dashboard-delivery-log-resent');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the event page resends its delivery; a disabled endpoint offers none', async () => {
    const c = await failedOnce();
    const { context, page, problems } = await signedInBrowser(stack, browser, shop.merchantCode, 'support');
    await page.goto(`${stack.url}/dashboard#/events/${c.eventId}`);
    const table = page.getByRole('table', { name: 'Deliveries of this event' });
    await table.waitFor();
    await expect(table.getByRole('button', { name: /^Resend / }).count()).resolves.toBe(1);
    await shot(page, 'dashboard-event-resend');
    await table.getByRole('button', { name: `Resend payment.captured ${c.eventId}` }).click();
    await page.getByRole('button', { name: `Confirm: Resend payment.captured ${c.eventId}` }).click();
    await waitFor(() => receiver.received.some((r) => r.status === 200 && r.headers['webhook-id'] === c.eventId));

    const d = await failedOnce();
    const disabled = await stack.http('PATCH', `/v1/webhook-endpoint/${endpointId}`, {
      key: shop.key,
      body: { disabled: true },
    });
    expect(disabled.status).toBe(200);
    expect((await log()).some((x) => x.resendable)).toBe(false);
    await page.goto(`${stack.url}/dashboard#/events/${d.eventId}`);
    await table.waitFor();
    await expect(table.textContent()).resolves.toContain('pending');
    await expect(table.getByRole('button', { name: /^Resend / }).count()).resolves.toBe(0);
    await shot(page, 'dashboard-event-disabled-endpoint');
    expect(problems).toEqual([]);
    await context.close();
  });
});
