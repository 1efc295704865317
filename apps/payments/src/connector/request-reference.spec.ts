import { createHash } from 'node:crypto';
import { CallerContext } from '@app/contracts';
import { canonicalJson, fingerprint as requestHash } from '@app/idempotency';
import { requestReference } from './request-reference';

const ctx = (idempotencyKey?: string, merchantCode = 'm1'): CallerContext => ({
  requestId: 'r1',
  merchantCode,
  environment: 'production',
  idempotencyKey,
});

describe('requestReference', () => {
  const body = { orderCode: 'o-1', amount: { currency: 'USD', value: 1000, exponent: 2 } };

  it('is the same for a retry of the same request: key, operation, body and target', () => {
    const first = requestReference(ctx('k1'), 'purchase', requestHash(body), 'conn-a');
    expect(requestReference(ctx('k1'), 'purchase', requestHash({ ...body }), 'conn-a')).toBe(first);
    expect(first).toMatch(/^rq_[A-Za-z0-9_-]{32}$/);
  });

  it('is the same across the upgrade that versioned the fingerprint (a released request retried after it)', () => {
    const unversioned = createHash('sha256').update(canonicalJson(body)).digest('hex');
    expect(requestReference(ctx('k1'), 'purchase', requestHash(body), 'conn-a')).toBe(
      requestReference(ctx('k1'), 'purchase', unversioned, 'conn-a'),
    );
  });

  it('differs when anything that makes it another request differs', () => {
    const first = requestReference(ctx('k1'), 'purchase', requestHash(body), 'conn-a');
    const others = [
      requestReference(ctx('k2'), 'purchase', requestHash(body), 'conn-a'),
      requestReference(ctx('k1', 'm2'), 'purchase', requestHash(body), 'conn-a'),
      requestReference(ctx('k1'), 'authorization', requestHash(body), 'conn-a'),
      requestReference(
        ctx('k1'),
        'purchase',
        requestHash({ ...body, amount: { ...body.amount, value: 999 } }),
        'conn-a',
      ),
      requestReference(ctx('k1'), 'purchase', requestHash(body), 'conn-b'),
    ];
    expect(new Set([first, ...others]).size).toBe(6);
  });

  it('is new every time without an Idempotency-Key', () => {
    expect(requestReference(ctx(), 'refund', requestHash(body), 'p1')).not.toBe(
      requestReference(ctx(), 'refund', requestHash(body), 'p1'),
    );
  });
});
