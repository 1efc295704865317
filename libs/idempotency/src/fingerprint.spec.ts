import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { DomainError } from '@app/errors';
import { canonicalJson, fingerprint, sameRequest } from './fingerprint';
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

  it('is versioned, and a row written before the version matches by the legacy algorithm', () => {
    const body = { metadata: { cart: 'c1', channel: 'web', tier: 'gold' }, planId: 7 };
    const again = { planId: 7, metadata: { tier: 'gold', channel: 'web', cart: 'c1' } };
    expect(fingerprint(body)).toMatch(/^v2:[0-9a-f]{64}$/);
    expect(sameRequest(fingerprint(body), again, 'op')).toBe(true);
    // The unversioned hash of payments and payment-links before.
    const unversioned = createHash('sha256').update(canonicalJson(body)).digest('hex');
    expect(sameRequest(unversioned, again, 'op')).toBe(true);
    expect(sameRequest(unversioned, { ...again, planId: 8 }, 'op')).toBe(false);
    // A service's own earlier algorithm (billing's: the body as sent).
    const asSent = (r: unknown, op: string) =>
      createHash('sha256')
        .update(`${op}\n${JSON.stringify(r)}`)
        .digest('hex');
    expect(sameRequest(asSent(body, 'op'), body, 'op', asSent)).toBe(true);
    expect(sameRequest(asSent(body, 'op'), again, 'op', asSent)).toBe(false);
    expect(sameRequest(fingerprint(body), again, 'op', asSent)).toBe(true);
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
    expect(replayOf(earlier, 'purchase', { a: 1 })).toEqual({ id: 'p' });
    expect(codeOf(() => replayOf(earlier, 'purchase', { a: 2 }))).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(codeOf(() => replayOf(earlier, 'refund', { a: 1 }))).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(codeOf(() => replayOf({ ...earlier, answered: false }, 'refund', { a: 2 }))).toBe('IDEMPOTENCY_IN_PROGRESS');
  });
});
