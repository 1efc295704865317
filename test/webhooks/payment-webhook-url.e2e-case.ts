import { TestStack } from '../support/stack';
import { signatureValid } from './emit';
import { WebhookReceiver, webhookStack } from '../support/webhook-receiver';
import { until } from '../support/wait';

jest.setTimeout(60_000);

/** A payment's final status is posted to its webhookUrl when it changes asynchronously. */
describe("a payment's webhookUrl, end to end through the payments service", () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;
  let key: string;
  let merchantCode: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await webhookStack({
      services: ['payments'],
    });
    merchantCode = await stack.merchant();
    key = (await stack.key([merchantCode])).key;
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it('posts the settled status of a pix payment, signed with the account secret, and not its creation', async () => {
    const { secret } = (await stack.http('GET', '/v1/webhook-secret', { key })).body;
    const path = `/pix-${Date.now()}`;
    const created = await stack.http('POST', '/v1/payment/purchase', {
      key,
      body: {
        merchantCode,
        orderCode: `o-${Date.now()}`,
        amount: { currency: 'BRL', value: 1050, exponent: 2 },
        paymentMethod: 'pix',
        apm: { payerDocument: '12345678909' },
        webhookUrl: receiver.url(path),
      },
    });
    expect(created.body).toMatchObject({ status: 'pending_action' });
    expect(created.status).toBe(200);
    expect(created.body.status).toBe('pending_action');
    const settled = await stack.http('POST', `/v1/sandbox/payment/${created.body.id}/settle`, {
      key,
      body: { merchantCode, outcome: 'paid' },
    });
    expect(settled.body.status).toBe('captured');
    const posts = await until(
      () => receiver.received.filter((r) => r.path === path),
      (x) => x.length > 0,
    );
    expect(posts).toHaveLength(1);
    const event = JSON.parse(posts[0].body);
    expect(event).toMatchObject({ type: 'payment.captured', data: { id: created.body.id, status: 'captured' } });
    expect(signatureValid(posts[0].headers['webhook-signature'], posts[0].body, secret)).toBe(true);
    // The synchronous pending answer was not posted there (it was the answer to the purchase call).
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received.filter((r) => r.path === path)).toHaveLength(1);
  });
});
