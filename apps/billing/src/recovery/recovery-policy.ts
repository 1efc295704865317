/**
 * A merchant's recovery policy (docs/api.md, Recovery policy): when a declined renewal is retried, by refusal
 * reason, within what limits. Pure: the rules, the facts of the decline, the answer. The default is
 * docs/api.md's schedule (+1, +3, +5, +7 days after the scheduled renewal, stop on `terminal`).
 */
import { DateTime } from 'luxon';
import {
  DEFAULT_RECOVERY_RULES,
  DunningWait,
  RecoveryPolicyRequest,
  RecoveryRules,
  RefusalCodeDto,
} from '@app/contracts';
import { DomainError } from '@app/errors';

const DAY_MS = 86_400_000;

/** The insufficient-funds refusal code (normalized ISO 8583). */
export const INSUFFICIENT_FUNDS_CODE = '51';

/** A subscription's dunning run, kept on the subscription while it is past_due. */
export interface DunningState {
  /** 0: the default policy. */
  policyVersion: number;
  /** ISO time of the scheduled renewal the retries count from. */
  scheduledAt: string;
  /** The refusal reason code that started the run (`failed`: a processing failure), for the recovery metrics. */
  startReason?: string;
  lastRefusal: RefusalCodeDto | null;
  lastConnectionCode: string | null;
  waitingFor: DunningWait;
}

/** The rules a PUT sets: absent fields take their defaults; 400 VALIDATION_FAILED names what cannot work. */
export function rulesOf(body: RecoveryPolicyRequest): RecoveryRules {
  const retryDays = body.retryDays ?? [...DEFAULT_RECOVERY_RULES.retryDays];
  if (retryDays.some((d, i) => i > 0 && d <= retryDays[i - 1])) {
    throw DomainError.validation('retryDays must increase', 'retryDays');
  }
  const insufficientFunds = body.insufficientFunds ?? 'schedule';
  if ((insufficientFunds === 'day_of_month') !== (body.dayOfMonth !== undefined)) {
    throw DomainError.validation('dayOfMonth goes with insufficientFunds day_of_month, and only with it', 'dayOfMonth');
  }
  const withinDays = body.withinDays ?? retryDays[retryDays.length - 1];
  if (retryDays[retryDays.length - 1] > withinDays) {
    throw DomainError.validation(`retryDays reach past withinDays (${withinDays})`, 'withinDays');
  }
  if (insufficientFunds !== 'schedule' && withinDays < 31) {
    throw DomainError.validation(
      'A retry at the start of next month or on a day of the month needs withinDays of at least 31',
      'withinDays',
    );
  }
  return {
    retryDays,
    insufficientFunds,
    dayOfMonth: body.dayOfMonth ?? null,
    switchMethod: body.switchMethod ?? 'schedule',
    maxRetries: body.maxRetries ?? retryDays.length,
    withinDays,
  };
}

/** What happens after a declined scheduled charge (not terminal) of a run. */
export type RetryPlan =
  | { kind: 'retry'; at: Date }
  /** A `switch_method` decline under `after_new_payment_method`: nothing is charged until the card changes. */
  | { kind: 'await_payment_method' }
  /** No retry left (maxRetries, the schedule, or withinDays): the subscription is suspended. */
  | { kind: 'stop' };

export interface DeclineFacts {
  /** The scheduled renewal the run counts from. */
  scheduledAt: Date;
  /** Failed retries so far, this one included (0 after the failed renewal itself). */
  retriesDone: number;
  refusal: RefusalCodeDto | null;
  /** When this decline happened. */
  at: Date;
}

/**
 * The next step of a run: an insufficient-funds decline waits for the next month or the set day when the
 * policy says so; another `switch_method` decline may wait for a new card; any other goes to the first
 * scheduled retry day after now. No more than `maxRetries` retries, none after `withinDays`.
 */
export function nextRetry(rules: RecoveryRules, d: DeclineFacts): RetryPlan {
  if (d.retriesDone >= rules.maxRetries) return { kind: 'stop' };
  const windowEnd = d.scheduledAt.getTime() + rules.withinDays * DAY_MS;
  let at: Date | null;
  // `51` is ruled by `insufficientFunds` alone, whatever `switchMethod` says of other switch_method declines.
  const insufficientFunds = d.refusal?.reasonCode === INSUFFICIENT_FUNDS_CODE;
  if (insufficientFunds && rules.insufficientFunds !== 'schedule') {
    at = rules.insufficientFunds === 'next_month' ? nextMonthStart(d.at) : nextDayOfMonth(d.at, rules.dayOfMonth!);
  } else if (
    !insufficientFunds &&
    d.refusal?.recoveryAction === 'switch_method' &&
    rules.switchMethod === 'after_new_payment_method'
  ) {
    return { kind: 'await_payment_method' };
  } else {
    at = scheduledRetry(rules, d);
  }
  return at && at.getTime() <= windowEnd ? { kind: 'retry', at } : { kind: 'stop' };
}

/** The `retriesDone`-th retry day, or the first later one still ahead of now (after an off-schedule retry). */
function scheduledRetry(rules: RecoveryRules, d: DeclineFacts): Date | null {
  for (const days of rules.retryDays.slice(d.retriesDone)) {
    const at = new Date(d.scheduledAt.getTime() + days * DAY_MS);
    if (at.getTime() > d.at.getTime()) return at;
  }
  return null;
}

/** 00:00 UTC on the 1st of the month after `at`. */
export function nextMonthStart(at: Date): Date {
  return DateTime.fromJSDate(at, { zone: 'utc' }).startOf('month').plus({ months: 1 }).toJSDate();
}

/** 00:00 UTC on the next `day` of a month strictly after `at` (day 1–28, so every month has it). */
export function nextDayOfMonth(at: Date, day: number): Date {
  const month = DateTime.fromJSDate(at, { zone: 'utc' }).startOf('month');
  const thisMonth = month.set({ day });
  return (thisMonth.toMillis() > at.getTime() ? thisMonth : month.plus({ months: 1 }).set({ day })).toJSDate();
}
