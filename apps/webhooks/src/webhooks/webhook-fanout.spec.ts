import { webhookBody } from './webhook-fanout.service';

describe('webhookBody', () => {
  const base = {
    id: 'e1',
    createdAt: '2025-11-21T10:00:00.000Z',
    environment: 'sandbox' as const,
    merchantCode: 'acme',
  };

  it('is the envelope in its key order, then the provider names; a payment’s data gains its snake_case ids', () => {
    const data = { id: 'p1', paymentCode: 'R-1', orderCode: 'O-1', status: 'captured' };
    const body = JSON.parse(webhookBody({ ...base, type: 'payment.captured', data }));
    expect(Object.keys(body)).toEqual([
      'id',
      'type',
      'createdAt',
      'environment',
      'merchantCode',
      'data',
      'event',
      'created_at',
    ]);
    expect(body).toMatchObject({ event: 'payment.captured', created_at: base.createdAt });
    expect(body.data).toEqual({ ...data, payment_code: 'R-1', order_code: 'O-1', payment_id: 'p1' });
  });

  it('adds no payment ids to other objects', () => {
    const data = { id: 'l1', status: 'active' };
    const body = JSON.parse(webhookBody({ ...base, type: 'payment_link.created', data }));
    expect(body.data).toEqual(data);
    expect(body.event).toBe('payment_link.created');
  });
});
