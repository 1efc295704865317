import { PaymentResponse } from '@app/contracts';
import { TestStack } from '../support/stack';
import { cardData, PaymentsClient, paymentsQuery, sandboxMerchant, usd } from './payments-fixtures';

interface OutboxEvent {
  type: string;
  envelope: {
    id: string;
    type: string;
    createdAt: string;
    environment: string;
    merchantCode: string;
    data: PaymentResponse;
  };
}

/** Every status change writes its payment.* event to the outbox in the same transaction (docs/events.md). */
describe('payment events in the outbox', () => {
  let stack: TestStack;
  let m: PaymentsClient;

  beforeAll(async () => ([stack, m] = await TestStack.startWith(sandboxMerchant)));
  afterAll(() => stack.stop());

  const eventsOf = (paymentId: string): Promise<OutboxEvent[]> =>
    paymentsQuery<OutboxEvent>(
      stack,
      "SELECT type, envelope FROM outbox WHERE envelope->'data'->>'id' = $1 ORDER BY created_at, id",
      [paymentId],
    );

  it('a purchase emits payment.captured with the Payment and its metadata', async () => {
    const p = (await m.purchase({ metadata: { cart: '7' } })).body;
    const [event, ...rest] = await eventsOf(p.id);
    expect(rest).toEqual([]);
    expect(event.type).toBe('payment.captured');
    expect(event.envelope).toMatchObject({
      type: 'payment.captured',
      environment: 'sandbox',
      merchantCode: m.merchantCode,
      createdAt: expect.any(String),
    });
    expect(event.envelope.data).toEqual(p);
    expect(JSON.stringify(event.envelope)).not.toContain('4111111111111111');
  });

  it.each([
    ['authorization', '4111111111111111', 'payment.authorized', 'authorized'],
    ['purchase', '4000000000000002', 'payment.refused', 'declined'],
    ['purchase', '4000000000000119', 'payment.failed', 'failed'],
    ['purchase', '4000002500003155', 'payment.pending', 'pending_3ds'],
  ] as const)('a %s with %s emits %s', async (kind, cardNumber, type, status) => {
    const r = kind === 'purchase' ? await m.purchase({ card: cardData(cardNumber) }) : await m.authorize();
    const events = await eventsOf(r.body.id);
    expect(events.map((e) => [e.type, e.envelope.data.status])).toEqual([[type, status]]);
  });

  it('capture, each refund and the last refund emit their events with the payment after the change', async () => {
    const p = (await m.authorize({ amount: usd(1000), metadata: { order: 'x' } })).body;
    await m.capture(p.id, 900);
    await m.refund(p.id, 400);
    await m.refund(p.id, 500);
    const events = await eventsOf(p.id);
    expect(events.map((e) => [e.type, e.envelope.data.status, e.envelope.data.amountRefunded.value])).toEqual([
      ['payment.authorized', 'authorized', 0],
      ['payment.captured', 'captured', 0],
      ['payment.refunded', 'captured', 400],
      ['payment.refunded', 'refunded', 900],
    ]);
    expect(events.every((e) => e.envelope.data.metadata.order === 'x')).toBe(true);
    expect(events[1].envelope.data.amountCaptured).toEqual(usd(900));
  });

  it('cancel and cancel_or_refund emit payment.cancelled / payment.refunded', async () => {
    const held = (await m.authorize()).body;
    await m.operate(held.id, 'cancel');
    expect((await eventsOf(held.id)).map((e) => e.type)).toEqual(['payment.authorized', 'payment.cancelled']);
    const paid = (await m.purchase()).body;
    await m.operate(paid.id, 'cancel_or_refund');
    expect((await eventsOf(paid.id)).map((e) => e.type)).toEqual(['payment.captured', 'payment.refunded']);
  });

  it('a refused operation writes no event', async () => {
    const p = (await m.purchase()).body;
    expect((await m.capture(p.id, 100)).status).toBe(409);
    expect((await m.refund(p.id, 5000)).status).toBe(422);
    expect((await eventsOf(p.id)).map((e) => e.type)).toEqual(['payment.captured']);
  });

  it('the relay publishes them (published_at set)', async () => {
    const p = (await m.purchase()).body;
    const deadline = Date.now() + 5000;
    let published: Array<{ published_at: Date | null }> = [];
    while (Date.now() < deadline) {
      published = await paymentsQuery(stack, "SELECT published_at FROM outbox WHERE envelope->'data'->>'id' = $1", [
        p.id,
      ]);
      if (published[0]?.published_at) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(published[0].published_at).not.toBeNull();
  });
});
