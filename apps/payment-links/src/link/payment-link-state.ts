import { EventType, EventTypes, LINK_STATUSES, LinkStatus } from '@app/contracts';
import { defineMachine } from '@app/state-machine';

export type LinkTrigger = 'cancel' | 'pay' | 'pay_last' | 'pay_after_close' | 'expire';

/**
 * The one table of payment link state changes. A successful payment that leaves room for more keeps the link
 * `active` and still emits `payment_link.used`; the last one a link allows (its only one, or its
 * `maxUses`-th) moves it to `used`. Cancelling a cancelled link answers it as it is.
 */
export const LINK_MACHINE = defineMachine<LinkStatus, LinkTrigger, EventType>({
  name: 'payment link',
  states: LINK_STATUSES,
  initial: 'active',
  moves: {
    cancel: {
      from: ['active'],
      to: 'cancelled',
      emits: [EventTypes.paymentLinkCancelled],
      verb: 'cancel',
      ignoredIn: ['cancelled'],
    },
    pay: { from: ['active'], to: 'active', emits: [EventTypes.paymentLinkUsed], verb: 'pay' },
    pay_last: { from: ['active'], to: 'used', emits: [EventTypes.paymentLinkUsed], verb: 'pay' },
    // A payment that started (its use reserved) while the link was active still counts if the merchant
    // cancelled the link or it expired before the acquirer answered: the money was taken through the link. So
    // does one whose reservation lapsed (an answer lost for minutes) while another payer used the last place.
    // The use is counted and announced; the status stays.
    pay_after_close: {
      from: ['cancelled', 'expired', 'used'],
      emits: [EventTypes.paymentLinkUsed],
      verb: 'count a payment of',
    },
    expire: { from: ['active'], to: 'expired', emits: [EventTypes.paymentLinkExpired], verb: 'expire' },
  },
  refusal: (verb, from) => `Cannot ${verb} a payment link that is ${from}`,
});

/**
 * The status after `trigger` and the event to emit (null for a no-op); 409 INVALID_STATE when the table
 * forbids it.
 */
export function transition(from: LinkStatus, trigger: LinkTrigger): { to: LinkStatus; event: EventType | null } {
  const { to, events } = LINK_MACHINE.transition(from, trigger);
  return { to, event: events[0] ?? null };
}

/** Moves `link` by `trigger` through the table (its status is written nowhere else); the event to emit, if any. */
export function move(link: { status: LinkStatus }, trigger: LinkTrigger): EventType | null {
  return LINK_MACHINE.apply(link, trigger)[0] ?? null;
}

/** The move a confirmed payment makes: its link's last allowed use, an earlier one, or one after it closed. */
export function payTrigger(link: { status: LinkStatus; maxUses: number | null }, usesCount: number): LinkTrigger {
  if (link.status !== 'active') return 'pay_after_close';
  return link.maxUses !== null && usesCount >= link.maxUses ? 'pay_last' : 'pay';
}

/** Expiry is inclusive: at `expiresAt` the link is already gone. */
export const isDue = (link: { status: LinkStatus; expiresAt: Date | null }, now: Date): boolean =>
  link.status === 'active' && link.expiresAt !== null && now.getTime() >= link.expiresAt.getTime();
