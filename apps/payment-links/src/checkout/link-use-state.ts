import { defineMachine } from '@app/state-machine';

export type LinkUseStatus = 'reserved' | 'confirmed' | 'released';
export type LinkUseMove = 'confirm' | 'release';

/**
 * The moves of a link use (one attempt to pay a link): reserved under the link's row lock before the payment
 * starts, then confirmed by a successful payment or released by anything else, once.
 */
export const LINK_USE_MACHINE = defineMachine<LinkUseStatus, LinkUseMove>({
  name: 'payment link use',
  states: ['reserved', 'confirmed', 'released'],
  initial: 'reserved',
  moves: {
    confirm: { from: ['reserved'], to: 'confirmed', verb: 'confirm' },
    release: { from: ['reserved'], to: 'released', verb: 'release' },
  },
  refusal: (verb, from) => `Cannot ${verb} a payment link use that is ${from}`,
});
