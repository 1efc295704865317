import { autovacuumCheck } from './autovacuum';

describe('autovacuumCheck', () => {
  it('has nothing to say when autovacuum is on, whatever the policy', () => {
    expect(autovacuumCheck('on', 'payments', true)).toBeUndefined();
    expect(autovacuumCheck('on', 'payments', false)).toBeUndefined();
  });

  it('warns when it is off and the start may go on', () => {
    expect(autovacuumCheck('off', 'billing', false)).toEqual({
      refuse: false,
      message: expect.stringMatching(/^PostgreSQL runs with autovacuum off \(the billing database\).*ALTER SYSTEM/),
    });
  });

  it('refuses when it is off and the policy refuses, naming the setting that would accept it', () => {
    const verdict = autovacuumCheck('off', 'gateway', true);
    expect(verdict?.refuse).toBe(true);
    expect(verdict?.message).toMatch(/autovacuum off \(the gateway database\).*ALLOW_AUTOVACUUM_OFF=true/);
  });
});
