import { defineMachine } from '@app/state-machine';
import { AttemptStatus, DeliveryStatus } from './webhook-delivery.entity';

/** How a try ended: delivered, failed with a next try scheduled, or failed for good. */
export type AttemptEnd = 'succeed' | 'retry' | 'give_up';

/** A try is pending until it is sent, then succeeded, failed (a next try follows) or dead; nothing after that. */
export const ATTEMPT_MACHINE = defineMachine<AttemptStatus, AttemptEnd>({
  name: 'webhook attempt',
  states: ['pending', 'succeeded', 'failed', 'dead'],
  initial: 'pending',
  moves: {
    succeed: { from: ['pending'], to: 'succeeded', verb: 'record the success of' },
    retry: { from: ['pending'], to: 'failed', verb: 'record the failure of' },
    give_up: { from: ['pending'], to: 'dead', verb: 'give up' },
  },
  refusal: (verb, from) => `Cannot ${verb} a webhook attempt that is ${from}`,
});

/**
 * A delivery stays pending while it has tries left; its first success or its last failure ends it. The
 * merchant may resend a dead one: it is pending again, with one new try.
 */
export const DELIVERY_MACHINE = defineMachine<DeliveryStatus, AttemptEnd | 'resend'>({
  name: 'webhook delivery',
  states: ['pending', 'succeeded', 'dead'],
  initial: 'pending',
  moves: {
    succeed: { from: ['pending'], to: 'succeeded', verb: 'record the success of' },
    retry: { from: ['pending'], verb: 'retry' },
    give_up: { from: ['pending'], to: 'dead', verb: 'give up' },
    resend: { from: ['dead'], to: 'pending', verb: 'resend' },
  },
  refusal: (verb, from) => `Cannot ${verb} a webhook delivery that is ${from}`,
});

/** The states an attempt may be in for it to move to `to`; the repository's UPDATE guards on them. */
export function statesBefore(to: AttemptStatus): AttemptStatus[] {
  return ATTEMPT_MACHINE.statesBefore(to);
}
