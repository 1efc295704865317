import { createHash } from 'node:crypto';
import { CallerContext } from '@app/contracts';
import { canonicalJson, RequestFingerprints } from '@app/idempotency';
import { requestReference } from './request-reference';

const ctx = (idempotencyKey?: string, merchantCode = 'm1'): CallerContext => ({
  requestId: 'r1',
  merchantCode,
  environment: 'production',
  idempotencyKey,
});

const requestHash = (body: unknown) => new RequestFingerprints('the deployment secret').of(body);

describe('requestReference', () => {
  const body = { orderCode: 'o-1', amount: { currency: 'USD', value: 1000, exponent: 2 } };

  it('is the same for a retry of the same request: key, operation, body and target', () => {
    const first = requestReference(ctx('k1'), 'purchase', requestHash(body), 'conn-a');
    expect(requestReference(ctx('k1'), 'purchase', requestHash({ ...body }), 'conn-a')).toBe(first);
    expect(first).toMatch(/^rq_[A-Za-z0-9_-]{32}$/);
  });

  it('cannot be recomputed from the request without the deployment secret', () => {
    const plain = createHash('sha256').update(canonicalJson(body)).digest('hex');
    const reference = requestReference(ctx('k1'), 'purchase', requestHash(body), 'conn-a');
    expect(reference).not.toBe(requestReference(ctx('k1'), 'purchase', plain, 'conn-a'));
    expect(reference).not.toBe(requestReference(ctx('k1'), 'purchase', `v2:${plain}`, 'conn-a'));
    const otherSecret = new RequestFingerprints('another secret').of(body);
    expect(reference).not.toBe(requestReference(ctx('k1'), 'purchase', otherSecret, 'conn-a'));
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
