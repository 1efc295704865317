import { PAYMENT_STATUSES } from '@app/contracts';
import { DomainError } from '@app/errors';
import { canTransition, PAYMENT_MACHINE, PaymentState, transition } from './payment-state';

const STATES: PaymentState[] = ['reserved', ...PAYMENT_STATUSES];
const TRIGGERS = PAYMENT_MACHINE.events;

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    return e instanceof DomainError ? e.code : 'OTHER';
  }
  return undefined;
};

describe('payment transition table', () => {
  it.each([
    ['reserved', 'approve_purchase', 'captured', 'payment.captured'],
    ['reserved', 'approve_authorization', 'authorized', 'payment.authorized'],
    ['reserved', 'decline', 'declined', 'payment.refused'],
    ['reserved', 'fail', 'failed', 'payment.failed'],
    ['reserved', 'require_challenge', 'pending_3ds', 'payment.pending'],
    ['reserved', 'require_action', 'pending_action', 'payment.pending'],
    ['pending_3ds', 'approve_purchase', 'captured', 'payment.captured'],
    ['pending_3ds', 'decline', 'declined', 'payment.refused'],
    ['pending_action', 'approve_purchase', 'captured', 'payment.captured'],
    ['pending_action', 'abandon', 'cancelled', 'payment.cancelled'],
    ['authorized', 'capture', 'captured', 'payment.captured'],
    ['authorized', 'cancel', 'cancelled', 'payment.cancelled'],
    ['authorized', 'expire_hold', 'cancelled', 'payment.cancelled'],
    ['captured', 'refund_partial', 'captured', 'payment.refunded'],
    ['captured', 'refund_full', 'refunded', 'payment.refunded'],
    // What a provider reports by webhook after it answered.
    ['captured', 'reverse_capture', 'authorized', 'payment.capture_failed'],
    ['refunded', 'reverse_refund', 'captured', 'payment.refund_failed'],
    ['captured', 'reverse_refund', 'captured', 'payment.refund_failed'],
    ['authorized', 'cancel_at_provider', 'cancelled', 'payment.cancelled'],
    ['captured', 'charge_back', 'charged_back', 'payment.charged_back'],
    ['refunded', 'charge_back', 'charged_back', 'payment.charged_back'],
  ] as const)('%s --%s--> %s emitting %s', (from, trigger, to, event) => {
    expect(transition(from, trigger)).toEqual({ to, event });
  });

  it.each([
    ['captured', 'capture'],
    ['authorized', 'refund_partial'],
    ['captured', 'cancel'],
    ['refunded', 'refund_partial'],
    ['cancelled', 'capture'],
    ['declined', 'capture'],
    ['pending_3ds', 'capture'],
    ['reserved', 'capture'],
  ] as const)('refuses %s --%s with 409 INVALID_STATE', (from, trigger) => {
    expect(codeOf(() => transition(from, trigger))).toBe('INVALID_STATE');
    expect(canTransition(from, trigger)).toBe(false);
  });

  it('has no way out of the final states', () => {
    for (const final of ['declined', 'failed', 'cancelled', 'charged_back'] as const) {
      expect(TRIGGERS.filter((t) => canTransition(final, t))).toEqual([]);
    }
  });

  it('leaves a refunded payment only on the provider’s word: a refund that failed after all, a chargeback', () => {
    expect(TRIGGERS.filter((t) => canTransition('refunded', t))).toEqual(['reverse_refund', 'charge_back']);
  });

  it('agrees with canTransition for every state and trigger', () => {
    for (const from of STATES) {
      for (const trigger of TRIGGERS) {
        expect(codeOf(() => transition(from, trigger)) === undefined).toBe(canTransition(from, trigger));
      }
    }
  });

  it('emits exactly one event on every move and never leads back to reserved', () => {
    for (const edge of PAYMENT_MACHINE.edges()) {
      expect(edge.emits).toHaveLength(1);
      expect(edge.to).not.toBe('reserved');
    }
  });
});
