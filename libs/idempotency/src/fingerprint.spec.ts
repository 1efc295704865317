import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { DomainError } from '@app/errors';
import { canonicalJson, RequestFingerprints } from './fingerprint';
import { checkIdempotencyKey, replayOf } from './idempotency-key';

/** The same value with every object's keys in another order (rotated by `by`), at every level. */
function reordered(value: unknown, by: number): unknown {
  if (Array.isArray(value)) return value.map((v) => reordered(v, by));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const shift = entries.length ? by % entries.length : 0;
  const rotated = [...entries.slice(shift), ...entries.slice(0, shift)].reverse();
  return Object.fromEntries(rotated.map(([k, v]) => [k, reordered(v, by + 1)]));
}

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    return e instanceof DomainError ? e.code : 'OTHER';
  }
  return undefined;
};

const SECRET = 'a deployment secret';
const fingerprints = new RequestFingerprints(SECRET);
const fingerprint = (request: unknown) => fingerprints.of(request);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('request fingerprint', () => {
  it('never changes with key order or whitespace', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(50), (value, by) => {
        const reformatted = JSON.parse(JSON.stringify(reordered(value, by), null, 2)) as unknown;
        expect(fingerprint(reordered(value, by))).toBe(fingerprint(value));
        expect(fingerprint(reformatted)).toBe(fingerprint(value));
      }),
    );
  });

  it('changes with any value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), fc.string(), (a, b, key) => {
        fc.pre(canonicalJson(a) !== canonicalJson(b));
        expect(fingerprint({ [key]: a })).not.toBe(fingerprint({ [key]: b }));
        expect(fingerprint([a])).not.toBe(fingerprint([b]));
      }),
    );
  });

  it('of a purchase with card data cannot be recomputed from the request without the secret', () => {
    const purchase = {
      orderCode: 'o-1',
      amount: { currency: 'EUR', value: 1250, exponent: 2 },
      card: { cardNumber: '4111111111111111', cvv: '737', expiryMonth: '03', expiryYear: '2030', holderName: 'A B' },
    };
    const stored = fingerprint(purchase);
    expect(stored).toMatch(/^v3:[0-9a-f]{64}$/);
    // What anyone holding the request (all but the digits and CVV it tries) could compute: never the stored value.
    expect(stored).not.toContain(sha256(canonicalJson(purchase)));
    expect(stored).not.toContain(sha256(JSON.stringify(purchase)));
    // With the secret it is an HMAC-SHA256 of the canonical request; another secret gives another fingerprint.
    expect(stored).toBe(`v3:${createHmac('sha256', SECRET).update(canonicalJson(purchase)).digest('hex')}`);
    expect(new RequestFingerprints('another secret').of(purchase)).not.toBe(stored);
    expect(() => new RequestFingerprints('')).toThrow();
  });

  it('matches rows of earlier releases by the algorithm their prefix names', () => {
    const body = { metadata: { cart: 'c1', channel: 'web', tier: 'gold' }, planId: 7 };
    const again = { planId: 7, metadata: { tier: 'gold', channel: 'web', cart: 'c1' } };
    const other = { ...again, planId: 8 };
    expect(fingerprints.matches(fingerprint(body), again, 'op')).toBe(true);
    expect(fingerprints.matches(fingerprint(body), other, 'op')).toBe(false);
    // A plain SHA-256 of the canonical body, versioned (v2:) and before the version (payments, payment-links).
    for (const earlier of [`v2:${sha256(canonicalJson(body))}`, sha256(canonicalJson(body))]) {
      expect(fingerprints.matches(earlier, again, 'op')).toBe(true);
      expect(fingerprints.matches(earlier, other, 'op')).toBe(false);
    }
    // Billing's first one, the body as sent, marked by the migration that moved billing's keys.
    const asSent = `v1-as-sent:${sha256(`op\n${JSON.stringify(body)}`)}`;
    expect(fingerprints.matches(asSent, body, 'op')).toBe(true);
    expect(fingerprints.matches(asSent, again, 'op')).toBe(false);
    expect(fingerprints.matches(asSent, body, 'other-op')).toBe(false);
    expect(fingerprints.earlierForms(body, 'op')).toEqual(
      expect.arrayContaining([`v2:${sha256(canonicalJson(body))}`, asSent]),
    );
    // A v3 fingerprint is never taken for an earlier algorithm's value.
    expect(fingerprints.matches(`v3:${sha256(canonicalJson(body))}`, body, 'op')).toBe(false);
  });

  it('writes undefined as JSON does', () => {
    expect(canonicalJson({ b: 1, a: undefined })).toBe('{"b":1}');
    expect(canonicalJson([1, { b: 1, a: [null] }, undefined])).toBe('[1,{"a":[null],"b":1},null]');
  });
});

describe('idempotency keys', () => {
  it('take 1-255 printable ASCII characters', () => {
    expect(codeOf(() => checkIdempotencyKey('a'))).toBeUndefined();
    expect(codeOf(() => checkIdempotencyKey('x'.repeat(255)))).toBeUndefined();
    expect(codeOf(() => checkIdempotencyKey(' ~!'))).toBeUndefined();
    expect(codeOf(() => checkIdempotencyKey(''))).toBe('VALIDATION_FAILED');
    expect(codeOf(() => checkIdempotencyKey('x'.repeat(256)))).toBe('VALIDATION_FAILED');
    expect(codeOf(() => checkIdempotencyKey('clé'))).toBe('VALIDATION_FAILED');
    expect(codeOf(() => checkIdempotencyKey('a\tb'))).toBe('VALIDATION_FAILED');
  });

  it('are required only where the service says so', () => {
    expect(codeOf(() => checkIdempotencyKey(undefined))).toBeUndefined();
    expect(codeOf(() => checkIdempotencyKey(undefined, true))).toBe('IDEMPOTENCY_KEY_REQUIRED');
  });

  it('replay the answer of the same request; 409 in progress first, then 422 for another request', () => {
    const earlier = { operation: 'purchase', requestHash: fingerprint({ a: 1 }), answered: true, body: { id: 'p' } };
    expect(replayOf(earlier, 'purchase', { a: 1 }, fingerprints)).toEqual({ id: 'p' });
    expect(codeOf(() => replayOf(earlier, 'purchase', { a: 2 }, fingerprints))).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(codeOf(() => replayOf(earlier, 'refund', { a: 1 }, fingerprints))).toBe('IDEMPOTENCY_KEY_REUSED');
    const inProgress = { ...earlier, answered: false };
    expect(codeOf(() => replayOf(inProgress, 'refund', { a: 2 }, fingerprints))).toBe('IDEMPOTENCY_IN_PROGRESS');
  });
});
