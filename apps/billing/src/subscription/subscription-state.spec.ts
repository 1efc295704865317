import fc from 'fast-check';
import { SUBSCRIPTION_STATUSES } from '@app/contracts';
import { DomainError } from '@app/errors';
import { SUBSCRIPTION_MACHINE, SubscriptionState, SubscriptionTrigger } from './subscription-state';

const canTransition = (from: SubscriptionState, trigger: SubscriptionTrigger) =>
  SUBSCRIPTION_MACHINE.can(from, trigger);
const subscriptionTransition = (from: SubscriptionState, trigger: SubscriptionTrigger) =>
  SUBSCRIPTION_MACHINE.transition(from, trigger);
const applySubscriptionTransition = (subscription: { status: SubscriptionState }, trigger: SubscriptionTrigger) =>
  SUBSCRIPTION_MACHINE.apply(subscription, trigger);

const STATES: SubscriptionState[] = ['new', ...SUBSCRIPTION_STATUSES];
const TRIGGERS = SUBSCRIPTION_MACHINE.events;

describe('subscription transition table', () => {
  it('cancel is allowed from every non-terminal state and refused from cancelled and completed', () => {
    expect(STATES.filter((s) => canTransition(s, 'cancel'))).toEqual([
      'pending',
      'trialing',
      'active',
      'past_due',
      'suspended',
      'paused',
    ]);
  });

  it('pause from active, trialing, past_due; resume from paused only, to active', () => {
    expect(STATES.filter((s) => canTransition(s, 'pause'))).toEqual(['trialing', 'active', 'past_due']);
    expect(STATES.filter((s) => canTransition(s, 'resume'))).toEqual(['paused']);
    expect(subscriptionTransition('paused', 'resume').to).toBe('active');
  });

  it('creation: pending, trialing or active; active also emits subscription.activated', () => {
    expect(subscriptionTransition('new', 'create_pending')).toEqual({
      to: 'pending',
      events: ['subscription.created'],
    });
    expect(subscriptionTransition('new', 'create_trialing').to).toBe('trialing');
    expect(subscriptionTransition('new', 'create_active').events).toEqual([
      'subscription.created',
      'subscription.activated',
    ]);
  });

  it('plan changes keep the status', () => {
    for (const s of ['trialing', 'active', 'paused'] as const) {
      expect(subscriptionTransition(s, 'change_plan').to).toBe(s);
      expect(subscriptionTransition(s, 'schedule_plan_change').to).toBe(s);
    }
  });

  it('terminal states allow nothing', () => {
    for (const trigger of TRIGGERS) {
      expect(canTransition('cancelled', trigger)).toBe(false);
      expect(canTransition('completed', trigger)).toBe(false);
    }
  });

  it('property: a transition either applies the table or throws INVALID_STATE leaving the status unchanged', () => {
    fc.assert(
      fc.property(fc.constantFrom(...STATES), fc.constantFrom(...TRIGGERS), (from, trigger) => {
        const subscription = { status: from };
        const t = SUBSCRIPTION_MACHINE.spec.moves[trigger];
        if (t.from.includes(from)) {
          const events = applySubscriptionTransition(subscription, trigger);
          expect(subscription.status).toBe(t.to ?? from);
          expect(events).toEqual(t.emits ?? []);
        } else {
          expect(() => applySubscriptionTransition(subscription, trigger)).toThrow(DomainError);
          expect(subscription.status).toBe(from);
          try {
            applySubscriptionTransition(subscription, trigger);
          } catch (e) {
            expect((e as DomainError).code).toBe('INVALID_STATE');
          }
        }
      }),
    );
  });
});
