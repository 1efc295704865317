import { parseEventEnvelope, PoisonEventError } from './event-envelope';

const good = {
  id: '01a1fe77-5e7d-7750-9a5e-d221407edd58',
  type: 'payment.captured',
  createdAt: '2025-11-21T10:00:00.000Z',
  environment: 'sandbox',
  merchantCode: 'acme',
  data: { id: 'p1' },
};
const bytes = (v: unknown): Uint8Array => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));

describe('event envelope parsing', () => {
  it('accepts a well-formed envelope on its own subject', () => {
    expect(parseEventEnvelope(bytes(good), 'payment.captured')).toEqual(good);
  });

  it.each([
    ['not JSON', '{', 'payment.captured'],
    ['a non-uuid id', { ...good, id: 'x' }, 'payment.captured'],
    ['an unknown type', { ...good, type: 'payment.exploded' }, 'payment.exploded'],
    ['a type on another subject', good, 'payment.refunded'],
    ['a bad timestamp', { ...good, createdAt: 'yesterday' }, 'payment.captured'],
    ['an unknown environment', { ...good, environment: 'staging' }, 'payment.captured'],
    ['no merchant', { ...good, merchantCode: '' }, 'payment.captured'],
    ['no data', { ...good, data: null }, 'payment.captured'],
  ])('refuses %s as poison (terminated, never redelivered)', (_, value, subject) => {
    expect(() => parseEventEnvelope(bytes(value), subject)).toThrow(PoisonEventError);
  });
});
