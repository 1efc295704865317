import { ChargeAttempt } from './charge-attempt';
import { chargeCalls } from './renewal-runner.service';

const attempt = (subscriptionId: string, merchantCode: string, environment = 'sandbox'): ChargeAttempt =>
  ({ subscriptionId, merchantCode, environment, merchantId: null }) as unknown as ChargeAttempt;

describe('chargeCalls: renewal charges grouped into payments calls', () => {
  it('puts only one merchant and environment in a call, at most `size` each, keeping their order', () => {
    const attempts = [
      attempt('a1', 'acme'),
      attempt('b1', 'bolt'),
      attempt('a2', 'acme'),
      attempt('a3', 'acme'),
      attempt('p1', 'acme', 'production'),
      attempt('a4', 'acme'),
    ];
    const calls = chargeCalls(attempts, 3).map((call) => call.map((a) => a.subscriptionId));
    expect(calls).toEqual([['a1', 'a2', 'a3'], ['a4'], ['b1'], ['p1']]);
  });

  it('answers no call for no attempt, and every attempt exactly once', () => {
    expect(chargeCalls([], 32)).toEqual([]);
    const many = Array.from({ length: 100 }, (_, i) => attempt(`s${i}`, `m${i % 3}`));
    const calls = chargeCalls(many, 32);
    expect(calls.every((c) => c.length <= 32)).toBe(true);
    expect(
      calls
        .flat()
        .map((a) => a.subscriptionId)
        .sort(),
    ).toEqual(many.map((a) => a.subscriptionId).sort());
  });
});
