import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SUBSCRIPTION_STATUSES, SubscriptionStatus } from '@app/contracts';
import { IllegalTransition } from '@app/state-machine';
import {
  acceptsChild,
  applyDecision,
  decide,
  DunningSchedule,
  followsParent,
  PlanTerms,
  PolicySubscription,
  renewalDueAt,
  SubscriptionFact,
} from './subscription-policy';
import { SubscriptionEntity } from './subscription.entity';
import { typescriptFiles } from '../../../../test/support/source-files';

const now = new Date('2028-01-31T10:00:00Z');
const day = (n: number, from = now) => new Date(from.getTime() + n * 86_400_000);
const monthly: PlanTerms = { id: 1, interval: 'month', intervalCount: 1, trialPeriodDays: 0, maxBillingCycles: 0 };
const trial14: PlanTerms = { ...monthly, trialPeriodDays: 14 };

/** A subscription in `status` with a current month (Jan 31 → Feb 29 2028). */
function sub(status: PolicySubscription['status'], patch: Partial<PolicySubscription> = {}): PolicySubscription {
  return {
    status,
    planId: 1,
    pendingPlanId: null,
    billingAnchor: now,
    currentPeriodStart: now,
    currentPeriodEnd: new Date('2028-02-29T10:00:00Z'),
    nextBillingDate: now,
    trialEnd: null,
    dunningAttemptCount: 0,
    cyclesCompleted: 1,
    activatedAt: day(-31),
    ...patch,
  };
}

const refusal = (f: () => unknown): string | null => {
  try {
    f();
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(IllegalTransition);
    return (e as Error).message;
  }
};

describe('subscription policy', () => {
  describe('creation', () => {
    it.each([
      ['no trial: active, cycle 1 charged now', monthly, undefined, ['create_active'], true, now],
      ['a plan trial: trialing, nothing charged', trial14, undefined, ['create_trialing'], false, null],
      ['a deferred start: pending until startAt', monthly, day(10), ['create_pending'], false, null],
      ['a deferred start with a trial: pending', trial14, day(10), ['create_pending'], false, null],
    ])('%s', (_, plan, startAt, moves, chargeNow, activatedAt) => {
      const d = decide(sub('new'), { kind: 'create', plan, startAt }, now);
      expect(d).toMatchObject({ moves, chargeNow, set: { activatedAt, startAt: startAt ?? null } });
    });

    it('dates: the first period, the trial and the first charge', () => {
      expect(decide(sub('new'), { kind: 'create', plan: monthly }, now).set).toMatchObject({
        billingAnchor: now,
        currentPeriodStart: now,
        currentPeriodEnd: new Date('2028-02-29T10:00:00Z'),
        nextBillingDate: new Date('2028-02-29T10:00:00Z'),
        trialStart: null,
        trialEnd: null,
      });
      expect(decide(sub('new'), { kind: 'create', plan: trial14 }, now).set).toMatchObject({
        billingAnchor: day(14),
        currentPeriodStart: now,
        currentPeriodEnd: day(14),
        nextBillingDate: day(14),
        trialStart: now,
        trialEnd: day(14),
      });
      expect(decide(sub('new'), { kind: 'create', plan: trial14, startAt: day(10) }, now).set).toMatchObject({
        billingAnchor: day(24),
        currentPeriodStart: null,
        currentPeriodEnd: null,
        nextBillingDate: day(10),
        trialStart: day(10),
        trialEnd: day(24),
      });
    });

    it('applied, the subscription leaves `new` for the status and events of the table', () => {
      const s = { ...sub('new'), id: 's' } as SubscriptionEntity;
      const events = applyDecision(s, decide(s, { kind: 'create', plan: monthly }, now));
      expect(s.status).toBe('active');
      expect(events).toEqual(['subscription.created', 'subscription.activated']);
      expect(s.nextBillingDate).toEqual(new Date('2028-02-29T10:00:00Z'));
    });

    it('a subscription that exists already cannot be created again', () => {
      expect(refusal(() => decide(sub('active'), { kind: 'create', plan: monthly }, now))).toBe(
        'Cannot create a active subscription',
      );
    });
  });

  describe('a due renewal step', () => {
    const due = (s: PolicySubscription, plan = monthly, openInvoice = false) =>
      decide(s, { kind: 'renewal_due', plan, openInvoice }, now);

    it.each([
      ['an open invoice (a dunning retry) is charged first', sub('past_due'), monthly, true, 'charge_open', []],
      ['an active one renews', sub('active'), monthly, false, 'renew', []],
      ['a trial ends and its first charge follows', sub('trialing'), trial14, false, 'renew', ['end_trial']],
      ['a deferred start without a trial is charged', sub('pending', { trialEnd: null }), monthly, false, 'renew', []],
      [
        'a deferred start with a trial starts the trial',
        sub('pending', { trialEnd: day(14) }),
        trial14,
        false,
        'start_trial',
        ['start_trial'],
      ],
      [
        'an active one that paid maxBillingCycles completes',
        sub('active', { cyclesCompleted: 3 }),
        { ...monthly, maxBillingCycles: 3 },
        false,
        'complete',
        ['complete'],
      ],
      [
        'one short of maxBillingCycles renews',
        sub('active', { cyclesCompleted: 2 }),
        { ...monthly, maxBillingCycles: 3 },
        false,
        'renew',
        [],
      ],
      [
        'a scheduled plan change takes over on an active one',
        sub('active', { pendingPlanId: 2 }),
        monthly,
        false,
        'renew',
        ['change_plan'],
      ],
      [
        'a scheduled plan change waits while the trial ends',
        sub('trialing', { pendingPlanId: 2 }),
        trial14,
        false,
        'renew',
        ['end_trial'],
      ],
    ])('%s', (_, s, plan, openInvoice, step, moves) => {
      expect(due(s, plan, openInvoice)).toMatchObject({ step, moves });
    });

    it('the new plan is invoiced from the boundary where it takes over', () => {
      expect(due(sub('active', { pendingPlanId: 2 }))).toEqual({
        step: 'renew',
        moves: ['change_plan'],
        set: { planId: 2, pendingPlanId: null, billingAnchor: now },
        planId: 2,
        from: now,
      });
      expect(due(sub('trialing', { pendingPlanId: 2 }))).toMatchObject({ planId: 1, set: {} });
    });

    it('a trial start moves the period to the trial; a completion ends billing', () => {
      expect(due(sub('pending', { nextBillingDate: now, trialEnd: day(14) }), trial14).set).toEqual({
        currentPeriodStart: now,
        currentPeriodEnd: day(14),
        nextBillingDate: day(14),
        updatedAt: now,
      });
      expect(due(sub('active', { cyclesCompleted: 1 }), { ...monthly, maxBillingCycles: 1 }).set).toEqual({
        completedAt: now,
        nextBillingDate: null,
        updatedAt: now,
      });
    });

    it('a step is due for a live subscription whose next billing date has come', () => {
      const dueAt = (status: SubscriptionStatus, next: Date | null) =>
        renewalDueAt({ status, nextBillingDate: next }, now);
      expect(SUBSCRIPTION_STATUSES.filter((s) => dueAt(s, now))).toEqual(['pending', 'trialing', 'active', 'past_due']);
      expect(dueAt('active', day(1))).toBe(false);
      expect(dueAt('active', null)).toBe(false);
    });
  });

  describe('a payment outcome', () => {
    it('paid: renews, activates or reactivates, and the next renewal is due at the period end', () => {
      const table = SUBSCRIPTION_STATUSES.map((status) => {
        const d = decide(sub(status, { dunningAttemptCount: 2 }), { kind: 'paid' }, now);
        return [status, d.moves, d.invoice, d.set.cyclesCompleted, d.set.nextBillingDate?.toISOString() ?? null];
      });
      const end = '2028-02-29T10:00:00.000Z';
      expect(table).toEqual([
        ['pending', ['activate'], 'pay', 2, end],
        ['trialing', ['activate'], 'pay', 2, end],
        ['active', ['renew'], 'pay', 2, end],
        ['past_due', ['recover'], 'pay', 2, end],
        ['suspended', [], 'pay', 2, null],
        ['paused', [], 'pay', 2, null],
        ['cancelled', [], 'pay', 2, null],
        ['completed', [], 'pay', 2, null],
      ]);
    });

    it('paid: the dunning count resets and the first activation is kept', () => {
      expect(decide(sub('past_due', { dunningAttemptCount: 3 }), { kind: 'paid' }, now).set).toMatchObject({
        dunningAttemptCount: 0,
        activatedAt: day(-31),
      });
      expect(decide(sub('pending', { activatedAt: null }), { kind: 'paid' }, now).set.activatedAt).toEqual(now);
    });

    const declined = (
      s: PolicySubscription,
      terminal = false,
      schedule?: DunningSchedule,
      mode: 'scheduled' | 'forced' = 'scheduled',
    ) => decide(s, { kind: 'declined', mode, terminal, scheduledAt: now, schedule }, now);

    it('declined: past_due, then a retry at +1, +3, +5, +7 days; the last one suspends and fails the invoice', () => {
      const steps = [sub('active'), ...[0, 1, 2, 3].map((n) => sub('past_due', { dunningAttemptCount: n }))].map(
        (s) => {
          const d = declined(s);
          return [d.moves, d.set.dunningAttemptCount, d.set.nextBillingDate ?? null, d.invoice];
        },
      );
      expect(steps).toEqual([
        [['fail_renewal'], 0, day(1), null],
        [['retry_failed'], 1, day(3), null],
        [['retry_failed'], 2, day(5), null],
        [['retry_failed'], 3, day(7), null],
        [['retry_failed', 'suspend'], 4, null, 'fail'],
      ]);
      expect(declined(sub('past_due', { dunningAttemptCount: 3 })).set.suspendedAt).toEqual(now);
    });

    it('declined: the dunning schedule it is given decides the retries', () => {
      const once: DunningSchedule = (n) => (n === 0 ? { kind: 'retry', at: day(2) } : { kind: 'stop' });
      expect(declined(sub('active'), false, once)).toMatchObject({
        moves: ['fail_renewal'],
        set: { nextBillingDate: day(2) },
      });
      expect(declined(sub('past_due', { dunningAttemptCount: 0 }), false, once)).toMatchObject({
        moves: ['retry_failed', 'suspend'],
        invoice: 'fail',
      });
    });

    it('declined: a schedule that waits for a new payment method keeps it past_due with no next attempt', () => {
      const waits: DunningSchedule = () => ({ kind: 'await_payment_method' });
      expect(declined(sub('active'), false, waits)).toMatchObject({
        moves: ['fail_renewal'],
        set: { dunningAttemptCount: 0, nextBillingDate: null },
        invoice: null,
      });
    });

    it('declined: a terminal refusal suspends at once; a forced retry records only', () => {
      expect(declined(sub('active'), true)).toMatchObject({ moves: ['fail_renewal', 'suspend'], invoice: 'fail' });
      expect(declined(sub('past_due', { dunningAttemptCount: 1 }), true, undefined, 'forced')).toEqual({
        moves: ['retry_failed'],
        set: { updatedAt: now },
        invoice: null,
      });
      for (const status of ['paused', 'suspended', 'cancelled', 'completed'] as const) {
        expect(declined(sub(status))).toEqual({ moves: [], set: { updatedAt: now }, invoice: null });
      }
    });
  });

  describe('a new payment method', () => {
    const card = (s: PolicySubscription, openInvoice: boolean) =>
      decide(s, { kind: 'new_payment_method', plan: monthly, openInvoice }, now);

    it('is stored on a live one, pays what is due on a past_due or suspended one, refused on an ended one', () => {
      const table = SUBSCRIPTION_STATUSES.map((status) => {
        const message = refusal(() => card(sub(status), true));
        if (message) return [status, message];
        const d = card(sub(status), true);
        return [status, d.moves, d.pays];
      });
      expect(table).toEqual([
        ['pending', ['update_payment_method'], 'nothing'],
        ['trialing', ['update_payment_method'], 'nothing'],
        ['active', ['update_payment_method'], 'nothing'],
        ['past_due', ['update_payment_method', 'recover'], 'open_invoice'],
        ['suspended', ['update_payment_method', 'recover'], 'new_period'],
        ['paused', ['update_payment_method'], 'nothing'],
        ['cancelled', 'Cannot update the payment method of a cancelled subscription'],
        ['completed', 'Cannot update the payment method of a completed subscription'],
      ]);
    });

    it('the open invoice keeps the period; a new period starts now; either clears dunning and counts a cycle', () => {
      expect(card(sub('past_due', { dunningAttemptCount: 2 }), true).set).toEqual({
        dunningAttemptCount: 0,
        suspendedAt: null,
        cyclesCompleted: 2,
        nextBillingDate: new Date('2028-02-29T10:00:00Z'),
        updatedAt: now,
      });
      expect(card(sub('past_due'), false)).toMatchObject({
        pays: 'new_period',
        set: { billingAnchor: now, currentPeriodStart: now, nextBillingDate: new Date('2028-02-29T10:00:00Z') },
      });
    });

    it('applied on a past_due one: the card event, then the reactivation, from the table', () => {
      const s = { ...sub('past_due'), id: 's' } as SubscriptionEntity;
      expect(applyDecision(s, card(s, true))).toEqual([
        'subscription.payment_method_updated',
        'subscription.reactivated',
      ]);
      expect(s.status).toBe('active');
    });
  });

  describe('a change of plan', () => {
    const change = (s: PolicySubscription, applyAt: 'now' | 'next_billing') =>
      decide(s, { kind: 'change_plan', applyAt, planId: 2 }, now);

    it('now: switches at once; an active one keeps its period end and prorates the rest', () => {
      expect(change(sub('active'), 'now')).toEqual({
        moves: ['change_plan'],
        set: { billingAnchor: new Date('2028-02-29T10:00:00Z'), planId: 2, pendingPlanId: null, updatedAt: now },
        prorate: true,
      });
      for (const status of ['pending', 'trialing', 'past_due', 'paused'] as const) {
        expect(change(sub(status), 'now')).toEqual({
          moves: ['change_plan'],
          set: { planId: 2, pendingPlanId: null, updatedAt: now },
          prorate: false,
        });
      }
    });

    it('at the next renewal: recorded as pending', () => {
      expect(change(sub('active'), 'next_billing')).toEqual({
        moves: ['schedule_plan_change'],
        set: { pendingPlanId: 2, updatedAt: now },
        prorate: false,
      });
    });

    it('refused on a suspended or ended subscription', () => {
      for (const status of ['suspended', 'cancelled', 'completed'] as const) {
        expect(refusal(() => change(sub(status), 'now'))).toBe(`Cannot change the plan of a ${status} subscription`);
        expect(refusal(() => change(sub(status), 'next_billing'))).toBe(
          `Cannot change the plan of a ${status} subscription`,
        );
      }
    });
  });

  describe("the merchant's verbs", () => {
    const facts: Record<'cancel' | 'pause' | 'resume', SubscriptionFact> = {
      cancel: { kind: 'cancel' },
      pause: { kind: 'pause' },
      resume: { kind: 'resume', plan: monthly },
    };

    it.each([
      ['cancel', ['pending', 'trialing', 'active', 'past_due', 'suspended', 'paused']],
      ['pause', ['trialing', 'active', 'past_due']],
      ['resume', ['paused']],
    ] as const)('%s is allowed in %j and refused with 409 elsewhere', (verb, allowed) => {
      const accepted = SUBSCRIPTION_STATUSES.filter(
        (status) => refusal(() => decide(sub(status), facts[verb], now)) === null,
      );
      expect(accepted).toEqual(allowed);
      expect(SUBSCRIPTION_STATUSES.filter((status) => followsParent({ status }, verb))).toEqual(allowed);
    });

    it('cancel ends billing and voids the open invoices; pause stops billing', () => {
      expect(decide(sub('active'), { kind: 'cancel' }, now)).toEqual({
        moves: ['cancel'],
        set: { cancelledAt: now, nextBillingDate: null, updatedAt: now },
        voidOpenInvoices: true,
      });
      expect(decide(sub('active'), { kind: 'pause' }, now)).toEqual({
        moves: ['pause'],
        set: { pausedAt: now, nextBillingDate: null, updatedAt: now },
        voidOpenInvoices: false,
      });
    });

    it('resume: paused time is not charged, the next charge is one interval after the resume', () => {
      expect(decide(sub('paused', { activatedAt: null }), facts.resume, now).set).toEqual({
        pausedAt: null,
        billingAnchor: now,
        currentPeriodStart: now,
        currentPeriodEnd: new Date('2028-02-29T10:00:00Z'),
        nextBillingDate: new Date('2028-02-29T10:00:00Z'),
        activatedAt: now,
        updatedAt: now,
      });
    });

    it('a child can be attached to a parent that can still be cancelled', () => {
      expect(SUBSCRIPTION_STATUSES.filter((status) => acceptsChild({ status }))).toEqual([
        'pending',
        'trialing',
        'active',
        'past_due',
        'suspended',
        'paused',
      ]);
    });
  });

  it('every decision is a path through the table or a 409 that changes nothing, and never sets the status', () => {
    const facts: SubscriptionFact[] = [
      { kind: 'create', plan: monthly },
      { kind: 'renewal_due', plan: trial14, openInvoice: false },
      { kind: 'renewal_due', plan: { ...monthly, maxBillingCycles: 1 }, openInvoice: false },
      { kind: 'paid' },
      ...[true, false].map((terminal) => ({
        kind: 'declined' as const,
        mode: 'scheduled' as const,
        terminal,
        scheduledAt: now,
      })),
      { kind: 'new_payment_method', plan: monthly, openInvoice: true },
      { kind: 'change_plan', applyAt: 'now', planId: 2 },
      { kind: 'change_plan', applyAt: 'next_billing', planId: 2 },
      { kind: 'cancel' },
      { kind: 'pause' },
      { kind: 'resume', plan: monthly },
    ];
    for (const status of ['new', ...SUBSCRIPTION_STATUSES] as const) {
      for (const fact of facts) {
        const s = { ...sub(status, { trialEnd: day(14), pendingPlanId: 2 }), id: 's' } as SubscriptionEntity;
        let decision;
        try {
          decision = decide(s, fact, now);
        } catch (e) {
          expect(e).toBeInstanceOf(IllegalTransition);
          expect(s.status).toBe(status);
          continue;
        }
        expect(Object.keys(decision.set)).not.toContain('status');
        expect(() => applyDecision(s, decision)).not.toThrow();
      }
    }
  });

  it('is the only billing code that moves a subscription through its table', () => {
    const src = join(__dirname, '..');
    const POLICY = [
      'subscription/subscription-policy.ts',
      'subscription/dunning-policy.ts',
      'subscription/subscription-state.ts',
    ];
    // A new row starts in the table's initial state; every other use of the table belongs to the policy.
    const reaching = typescriptFiles(src).flatMap((path) => {
      const file = relative(src, path);
      if (POLICY.includes(file)) return [];
      const uses = readFileSync(path, 'utf8').match(/SUBSCRIPTION_MACHINE\.(?!spec\.initial\b)\w+/g) ?? [];
      return uses.map((use) => `${file}: ${use}`);
    });
    expect(reaching).toEqual([]);
  });
});
