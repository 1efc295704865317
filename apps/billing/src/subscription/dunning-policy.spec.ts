import { SUBSCRIPTION_STATUSES, SubscriptionStatus } from '@app/contracts';
import { IllegalTransition } from '@app/state-machine';
import { SUBSCRIPTION_MACHINE } from './subscription-state';
import { canRetry, checkRetry, declinedMove, dunningRetryAt, newPaymentMethodMoves, paidMove } from './dunning-policy';
import { RetryPlan } from '../recovery/recovery-policy';

const at = new Date('2028-02-29T10:00:00Z');
const day = (n: number) => new Date(at.getTime() + n * 86_400_000);
const scheduled = { mode: 'scheduled', terminal: false, scheduledAt: at } as const;

describe('dunning policy', () => {
  it('dunning retries fall at +1, +3, +5 and +7 days after the scheduled renewal, then none', () => {
    expect([0, 1, 2, 3, 4].map((n) => dunningRetryAt(at, n)?.toISOString() ?? null)).toEqual([
      '2028-03-01T10:00:00.000Z',
      '2028-03-03T10:00:00.000Z',
      '2028-03-05T10:00:00.000Z',
      '2028-03-07T10:00:00.000Z',
      null,
    ]);
  });

  it('a paid charge renews, reactivates or activates, and leaves a paused, suspended or ended one as it is', () => {
    expect(SUBSCRIPTION_STATUSES.map((s) => [s, paidMove(s)])).toEqual([
      ['pending', 'activate'],
      ['trialing', 'activate'],
      ['active', 'renew'],
      ['past_due', 'recover'],
      ['suspended', null],
      ['paused', null],
      ['cancelled', null],
      ['completed', null],
    ]);
  });

  it('a declined renewal makes a live subscription past_due with the first retry at +1 day', () => {
    for (const status of ['active', 'trialing', 'pending'] as const) {
      expect(declinedMove({ status, dunningAttemptCount: 3 }, scheduled)).toEqual({
        kind: 'retry',
        moves: ['fail_renewal'],
        dunningAttemptCount: 0,
        retryAt: day(1),
      });
    }
  });

  it('each declined dunning retry counts and waits for the next; the fourth suspends', () => {
    const steps = [0, 1, 2, 3].map((done) =>
      declinedMove({ status: 'past_due', dunningAttemptCount: done }, scheduled),
    );
    expect(steps).toEqual([
      { kind: 'retry', moves: ['retry_failed'], dunningAttemptCount: 1, retryAt: day(3) },
      { kind: 'retry', moves: ['retry_failed'], dunningAttemptCount: 2, retryAt: day(5) },
      { kind: 'retry', moves: ['retry_failed'], dunningAttemptCount: 3, retryAt: day(7) },
      { kind: 'suspend', moves: ['retry_failed', 'suspend'], dunningAttemptCount: 4 },
    ]);
  });

  it('the schedule it is given decides when the retries fall and when they are spent', () => {
    expect([0, 1, 2].map((n) => dunningRetryAt(at, n, [2, 4]))).toEqual([day(2), day(4), null]);
    const schedule = (n: number): RetryPlan => {
      const next = dunningRetryAt(at, n, [2, 4]);
      return next ? { kind: 'retry', at: next } : { kind: 'stop' };
    };
    expect(declinedMove({ status: 'active', dunningAttemptCount: 0 }, scheduled, schedule)).toMatchObject({
      kind: 'retry',
      retryAt: day(2),
    });
    expect(declinedMove({ status: 'past_due', dunningAttemptCount: 1 }, scheduled, schedule)).toEqual({
      kind: 'suspend',
      moves: ['retry_failed', 'suspend'],
      dunningAttemptCount: 2,
    });
  });

  it('a terminal refusal suspends at once, on the renewal or on a retry', () => {
    const terminal = { ...scheduled, terminal: true };
    expect(declinedMove({ status: 'active', dunningAttemptCount: 0 }, terminal)).toEqual({
      kind: 'suspend',
      moves: ['fail_renewal', 'suspend'],
      dunningAttemptCount: 0,
    });
    expect(declinedMove({ status: 'past_due', dunningAttemptCount: 1 }, terminal)).toEqual({
      kind: 'suspend',
      moves: ['retry_failed', 'suspend'],
      dunningAttemptCount: 2,
    });
  });

  it('a forced retry only records its attempt: the schedule and the count stay', () => {
    const forced = { ...scheduled, mode: 'forced', terminal: true } as const;
    expect(declinedMove({ status: 'past_due', dunningAttemptCount: 2 }, forced)).toEqual({
      kind: 'recorded',
      moves: ['retry_failed'],
    });
    expect(declinedMove({ status: 'paused', dunningAttemptCount: 2 }, forced)).toEqual({ kind: 'recorded', moves: [] });
  });

  it('a decline on a subscription paused, suspended or ended meanwhile changes nothing', () => {
    for (const status of ['paused', 'suspended', 'cancelled', 'completed'] as const) {
      expect(declinedMove({ status, dunningAttemptCount: 1 }, scheduled)).toEqual({ kind: 'recorded', moves: [] });
    }
  });

  it('every move it decides is one the subscription table allows, in order', () => {
    for (const status of SUBSCRIPTION_STATUSES) {
      for (const mode of ['scheduled', 'forced'] as const) {
        for (const terminal of [false, true]) {
          let current: SubscriptionStatus = status;
          for (const move of declinedMove({ status, dunningAttemptCount: 3 }, { mode, terminal, scheduledAt: at })
            .moves) {
            expect(SUBSCRIPTION_MACHINE.can(current, move)).toBe(true);
            if (move === 'fail_renewal') current = 'past_due';
            if (move === 'suspend') current = 'suspended';
          }
        }
      }
      const paid = paidMove(status);
      if (paid) expect(SUBSCRIPTION_MACHINE.can(status, paid)).toBe(true);
    }
  });

  it('a new card recovers a past_due or suspended subscription, is stored on a live one, refused on an ended one', () => {
    expect(
      SUBSCRIPTION_STATUSES.filter((s) => s !== 'cancelled' && s !== 'completed').map(newPaymentMethodMoves),
    ).toEqual([
      ['update_payment_method'],
      ['update_payment_method'],
      ['update_payment_method'],
      ['update_payment_method', 'recover'],
      ['update_payment_method', 'recover'],
      ['update_payment_method'],
    ]);
    for (const status of ['cancelled', 'completed'] as const) {
      expect(() => newPaymentMethodMoves(status)).toThrow(IllegalTransition);
      expect(() => newPaymentMethodMoves(status)).toThrow(
        `Cannot update the payment method of a ${status} subscription`,
      );
    }
  });

  it('a forced retry is for a past_due subscription only, refused with 409 otherwise', () => {
    expect(SUBSCRIPTION_STATUSES.filter(canRetry)).toEqual(['past_due']);
    expect(() => checkRetry('past_due')).not.toThrow();
    expect(() => checkRetry('active')).toThrow('Cannot retry the payment of a active subscription');
    try {
      checkRetry('suspended');
    } catch (e) {
      expect(e).toMatchObject({ code: 'INVALID_STATE', status: 409 });
    }
    expect.assertions(4);
  });
});
