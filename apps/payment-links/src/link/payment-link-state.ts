import { EventType, EventTypes, LinkStatus } from '@app/contracts';
import { DomainError } from '@app/errors';

export type LinkTrigger = 'cancel' | 'pay' | 'pay_last' | 'pay_after_close' | 'expire';

interface Transition {
  from: readonly LinkStatus[];
  /** `same`: the use is counted and announced, the status stays. */
  to: LinkStatus | 'same';
  event: EventType;
  /** For the INVALID_STATE message: "Cannot <verb> a link that is used". */
  verb: string;
  /** States in which the trigger changes nothing and answers the link as it is (no event). */
  noop?: readonly LinkStatus[];
}

/**
 * The one table of payment link state changes (SPEC "Payment link" transitions, DECISIONS §4). A successful
 * payment that leaves room for more keeps the link `active` and still emits `payment_link.used`; the last
 * one a link allows (its only one, or its `maxUses`-th) moves it to `used`.
 */
export const LINK_TRANSITIONS: Readonly<Record<LinkTrigger, Transition>> = {
  cancel: {
    from: ['active'],
    to: 'cancelled',
    event: EventTypes.paymentLinkCancelled,
    verb: 'cancel',
    noop: ['cancelled'],
  },
  pay: { from: ['active'], to: 'active', event: EventTypes.paymentLinkUsed, verb: 'pay' },
  pay_last: { from: ['active'], to: 'used', event: EventTypes.paymentLinkUsed, verb: 'pay' },
  // A payment that started (its use reserved) while the link was active still counts if the merchant
  // cancelled the link or it expired before the acquirer answered: the money was taken through the link. So
  // does one whose reservation lapsed (an answer lost for minutes) while another payer used the last place.
  pay_after_close: {
    from: ['cancelled', 'expired', 'used'],
    to: 'same',
    event: EventTypes.paymentLinkUsed,
    verb: 'count a payment of',
  },
  expire: { from: ['active'], to: 'expired', event: EventTypes.paymentLinkExpired, verb: 'expire' },
};

/**
 * The status after `trigger` and the event to emit (null for a no-op); 409 INVALID_STATE when the table
 * forbids it.
 */
export function transition(from: LinkStatus, trigger: LinkTrigger): { to: LinkStatus; event: EventType | null } {
  const t = LINK_TRANSITIONS[trigger];
  if (t.noop?.includes(from)) return { to: from, event: null };
  if (!t.from.includes(from)) throw DomainError.invalidState(`Cannot ${t.verb} a payment link that is ${from}`);
  return { to: t.to === 'same' ? from : t.to, event: t.event };
}

/** Expiry is inclusive: at `expiresAt` the link is already gone. */
export const isDue = (link: { status: LinkStatus; expiresAt: Date | null }, now: Date): boolean =>
  link.status === 'active' && link.expiresAt !== null && now.getTime() >= link.expiresAt.getTime();
