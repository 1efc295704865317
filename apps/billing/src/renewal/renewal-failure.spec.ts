import { QueryFailedError } from 'typeorm';
import { DomainError } from '@app/errors';
import { isDeterministic, parkReason } from './renewal-failure';

const pgError = (code: string) => new QueryFailedError('SELECT 1', [], Object.assign(new Error('pg'), { code }));

describe('renewal failures', () => {
  it('deterministic: out of range, broken types, data exceptions, refused input', () => {
    expect(isDeterministic(new RangeError('Usage sum exceeds Number.MAX_SAFE_INTEGER'))).toBe(true);
    expect(isDeterministic(new TypeError('x is undefined'))).toBe(true);
    expect(isDeterministic(pgError('22003'))).toBe(true);
    expect(isDeterministic(DomainError.validation('amount.value must be a safe integer'))).toBe(true);
    expect(isDeterministic(new DomainError('CURRENCY_MISMATCH', 'USD vs EUR'))).toBe(true);
    expect(
      isDeterministic(new DomainError('NO_CONNECTION', 'No production connection accepts card payments in USD')),
    ).toBe(true);
  });

  it('transient: timeouts, a service down, deadlocks, lost connections, anything unknown', () => {
    expect(isDeterministic(new DomainError('UPSTREAM_TIMEOUT', 'timeout'))).toBe(false);
    expect(isDeterministic(new DomainError('SERVICE_UNAVAILABLE', 'no responders'))).toBe(false);
    expect(isDeterministic(DomainError.invalidState('changed meanwhile'))).toBe(false);
    expect(isDeterministic(pgError('40P01'))).toBe(false);
    expect(isDeterministic(new Error('Connection terminated unexpectedly'))).toBe(false);
    expect(isDeterministic('boom')).toBe(false);
  });

  it('the reason is the error kind and first line of its message, at most 500 characters', () => {
    expect(parkReason(new RangeError('Usage sum 9007199254740992 exceeds Number.MAX_SAFE_INTEGER\n at x'))).toBe(
      'RangeError: Usage sum 9007199254740992 exceeds Number.MAX_SAFE_INTEGER',
    );
    expect(parkReason(new RangeError('x'.repeat(900)))).toHaveLength(500);
  });
});
