import { DomainError } from '@app/errors';
import { canonicalJson, checkIdempotencyKey, requestHash } from './idempotency-key';

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    return e instanceof DomainError ? e.code : 'OTHER';
  }
  return undefined;
};

describe('idempotency keys', () => {
  it('takes 1-255 printable ASCII characters', () => {
    expect(codeOf(() => checkIdempotencyKey('sandbox', 'a'))).toBeUndefined();
    expect(codeOf(() => checkIdempotencyKey('sandbox', 'x'.repeat(255)))).toBeUndefined();
    expect(codeOf(() => checkIdempotencyKey('sandbox', ' ~!'))).toBeUndefined();
    expect(codeOf(() => checkIdempotencyKey('sandbox', ''))).toBe('VALIDATION_FAILED');
    expect(codeOf(() => checkIdempotencyKey('sandbox', 'x'.repeat(256)))).toBe('VALIDATION_FAILED');
    expect(codeOf(() => checkIdempotencyKey('sandbox', 'clé'))).toBe('VALIDATION_FAILED');
    expect(codeOf(() => checkIdempotencyKey('sandbox', 'a\tb'))).toBe('VALIDATION_FAILED');
  });

  it('is required in production only', () => {
    expect(codeOf(() => checkIdempotencyKey('sandbox', undefined))).toBeUndefined();
    expect(codeOf(() => checkIdempotencyKey('production', undefined))).toBe('IDEMPOTENCY_KEY_REQUIRED');
  });

  it('hashes equal requests equal, whatever the key order, and different ones differently', () => {
    const a = { amount: { value: 1, currency: 'USD', exponent: 2 }, merchantCode: 'm', note: undefined };
    const b = { merchantCode: 'm', amount: { exponent: 2, currency: 'USD', value: 1 } };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(requestHash(a)).toBe(requestHash(b));
    expect(requestHash({ ...b, amount: { ...b.amount, value: 2 } })).not.toBe(requestHash(b));
    expect(canonicalJson([1, { b: 1, a: [null] }])).toBe('[1,{"a":[null],"b":1}]');
  });
});
