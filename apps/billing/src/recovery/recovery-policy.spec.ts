import {
  DEFAULT_RECOVERY_RULES,
  INSUFFICIENT_FUNDS_RETRIES,
  RecoveryRules,
  RefusalCodeDto,
  SWITCH_METHOD_RETRIES,
} from '@app/contracts';
import { DomainError } from '@app/errors';
import { nextDayOfMonth, nextMonthStart, nextRetry, rulesOf } from './recovery-policy';

const refusal = (reasonCode: string, recoveryAction: RefusalCodeDto['recoveryAction']): RefusalCodeDto => ({
  reasonCode,
  reason: reasonCode,
  originalReasonCode: reasonCode,
  originalReason: reasonCode,
  recoveryAction,
});
const NSF = refusal('51', 'switch_method');
const EXPIRED = refusal('54', 'switch_method');
const DNH = refusal('5', 'retry');
const scheduledAt = new Date('2028-02-10T00:00:00Z');
const day = (n: number) => new Date(scheduledAt.getTime() + n * 86_400_000);
const rules = (o: Partial<RecoveryRules>): RecoveryRules => ({ ...DEFAULT_RECOVERY_RULES, ...o });

describe('recovery policy', () => {
  it('the default is the documented schedule: +1, +3, +5, +7 days, then stop', () => {
    const plans = [0, 1, 2, 3, 4].map((n) =>
      nextRetry(DEFAULT_RECOVERY_RULES, {
        scheduledAt,
        retriesDone: n,
        refusal: NSF,
        at: day(n === 0 ? 0 : [1, 3, 5, 7][n - 1]),
      }),
    );
    expect(plans).toEqual([
      { kind: 'retry', at: day(1) },
      { kind: 'retry', at: day(3) },
      { kind: 'retry', at: day(5) },
      { kind: 'retry', at: day(7) },
      { kind: 'stop' },
    ]);
  });

  it('insufficient funds: the 1st of next month or the set day; other reasons keep the schedule', () => {
    const next = rules({ insufficientFunds: 'next_month', withinDays: 40 });
    expect(nextRetry(next, { scheduledAt, retriesDone: 0, refusal: NSF, at: scheduledAt })).toEqual({
      kind: 'retry',
      at: new Date('2028-03-01T00:00:00Z'),
    });
    expect(nextRetry(next, { scheduledAt, retriesDone: 0, refusal: DNH, at: scheduledAt })).toEqual({
      kind: 'retry',
      at: day(1),
    });
    const onDay = rules({ insufficientFunds: 'day_of_month', dayOfMonth: 5, withinDays: 40 });
    expect(nextRetry(onDay, { scheduledAt, retriesDone: 0, refusal: NSF, at: scheduledAt })).toEqual({
      kind: 'retry',
      at: new Date('2028-03-05T00:00:00Z'),
    });
  });

  it('switch_method: waits for a new payment method when the policy says so', () => {
    const wait = rules({ switchMethod: 'after_new_payment_method' });
    expect(nextRetry(wait, { scheduledAt, retriesDone: 0, refusal: EXPIRED, at: scheduledAt })).toEqual({
      kind: 'await_payment_method',
    });
    expect(nextRetry(wait, { scheduledAt, retriesDone: 0, refusal: DNH, at: scheduledAt }).kind).toBe('retry');
  });

  it('insufficient funds × switchMethod: every pair follows insufficientFunds, never waits for a new card', () => {
    const expected = {
      schedule: day(1),
      next_month: new Date('2028-03-01T00:00:00Z'),
      day_of_month: new Date('2028-03-05T00:00:00Z'),
    } as const;
    for (const insufficientFunds of INSUFFICIENT_FUNDS_RETRIES) {
      for (const switchMethod of SWITCH_METHOD_RETRIES) {
        const policy = rules({
          insufficientFunds,
          switchMethod,
          dayOfMonth: insufficientFunds === 'day_of_month' ? 5 : null,
          withinDays: 40,
        });
        const plan = nextRetry(policy, { scheduledAt, retriesDone: 0, refusal: NSF, at: scheduledAt });
        expect({ insufficientFunds, switchMethod, plan }).toEqual({
          insufficientFunds,
          switchMethod,
          plan: { kind: 'retry', at: expected[insufficientFunds] },
        });
        // Another switch_method decline still waits for a new card under after_new_payment_method.
        const other = nextRetry(policy, { scheduledAt, retriesDone: 0, refusal: EXPIRED, at: scheduledAt });
        expect(other.kind).toBe(switchMethod === 'after_new_payment_method' ? 'await_payment_method' : 'retry');
      }
    }
  });

  it('stops at maxRetries and after withinDays; after an off-schedule retry the next day still ahead', () => {
    expect(nextRetry(rules({ maxRetries: 2 }), { scheduledAt, retriesDone: 2, refusal: DNH, at: day(3) })).toEqual({
      kind: 'stop',
    });
    const next = rules({ insufficientFunds: 'next_month', withinDays: 31 });
    expect(nextRetry(next, { scheduledAt, retriesDone: 1, refusal: NSF, at: day(20) })).toEqual({ kind: 'stop' });
    const long = rules({ retryDays: [1, 3, 30], withinDays: 40 });
    expect(nextRetry(long, { scheduledAt, retriesDone: 1, refusal: DNH, at: day(19) })).toEqual({
      kind: 'retry',
      at: day(30),
    });
  });

  it('calendar days in UTC', () => {
    expect(nextMonthStart(new Date('2028-12-31T23:59:00Z')).toISOString()).toBe('2029-01-01T00:00:00.000Z');
    expect(nextDayOfMonth(new Date('2028-02-04T10:00:00Z'), 5).toISOString()).toBe('2028-02-05T00:00:00.000Z');
    expect(nextDayOfMonth(new Date('2028-02-05T00:00:00Z'), 5).toISOString()).toBe('2028-03-05T00:00:00.000Z');
  });

  it('rules: defaults filled, limits derived from the retry days, impossible ones refused', () => {
    expect(rulesOf({ retryDays: [2, 9] })).toEqual({
      ...DEFAULT_RECOVERY_RULES,
      retryDays: [2, 9],
      maxRetries: 2,
      withinDays: 9,
    });
    const refused = (body: object) => {
      try {
        rulesOf(body);
      } catch (e) {
        return (e as DomainError).param;
      }
      return null;
    };
    expect(refused({ retryDays: [2, 2] })).toBe('retryDays');
    expect(refused({ dayOfMonth: 2 })).toBe('dayOfMonth');
    expect(refused({ insufficientFunds: 'next_month', withinDays: 30 })).toBe('withinDays');
  });
});
