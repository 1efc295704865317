import { EventEnvelope } from './events';
import { onEvent, onEvents } from './event-data';

const envelope = (type: string, data: object) =>
  ({ id: 'e1', type, createdAt: 'now', environment: 'sandbox', merchantCode: 'acme', data }) as EventEnvelope;

describe('onEvent', () => {
  it('runs the handler on its type only, with the typed data', async () => {
    const seen: Array<string | null> = [];
    const handler = onEvent('subscription.cancelled', (e) => seen.push(e.data.cancelledAt));
    await handler(envelope('subscription.cancelled', { cancelledAt: '2025-11-21T10:00:00.000Z' }));
    await handler(envelope('subscription.paused', { cancelledAt: 'never' }));
    expect(seen).toEqual(['2025-11-21T10:00:00.000Z']);
  });

  it('dispatches several types, and ignores a type no handler names', async () => {
    const handler = onEvents({
      'invoice.paid': (e) => `paid ${e.data.paidAt}`,
      'invoice.failed': (e) => `failed ${e.data.paymentAttemptCount}`,
    });
    expect(await handler(envelope('invoice.paid', { paidAt: 'then' }))).toBe('paid then');
    expect(await handler(envelope('invoice.failed', { paymentAttemptCount: 2 }))).toBe('failed 2');
    expect(await handler(envelope('invoice.voided', {}))).toBeUndefined();
    expect(await handler(envelope('toString', {}))).toBeUndefined();
  });

  it('refuses at compile time a misspelt type or a field its data lacks', () => {
    // @ts-expect-error no such event type
    onEvent('subscription.canceled', () => undefined);
    // @ts-expect-error an invoice has no cancelledAt
    onEvent('invoice.paid', (e) => e.data.cancelledAt);
    expect(true).toBe(true);
  });
});
