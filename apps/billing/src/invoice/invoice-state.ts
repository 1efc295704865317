import { EventType, EventTypes, InvoiceStatus } from '@app/contracts';
import { DomainError } from '@app/errors';

export type InvoiceState = InvoiceStatus | 'new';
export type InvoiceTrigger = 'issue' | 'pay' | 'fail' | 'void';

interface Transition {
  from: readonly InvoiceState[];
  to: InvoiceStatus;
  event: EventType;
  verb: string;
}

/** The one table of invoice state changes (DECISIONS §5: open → paid | failed | void). */
export const INVOICE_TRANSITIONS: Readonly<Record<InvoiceTrigger, Transition>> = {
  issue: { from: ['new'], to: 'open', event: EventTypes.invoiceCreated, verb: 'issue' },
  pay: { from: ['open'], to: 'paid', event: EventTypes.invoicePaid, verb: 'pay' },
  fail: { from: ['open'], to: 'failed', event: EventTypes.invoiceFailed, verb: 'fail' },
  void: { from: ['open'], to: 'void', event: EventTypes.invoiceVoided, verb: 'void' },
};

export function invoiceTransition(
  from: InvoiceState,
  trigger: InvoiceTrigger,
): { to: InvoiceStatus; event: EventType } {
  const t = INVOICE_TRANSITIONS[trigger];
  if (!t.from.includes(from)) {
    throw DomainError.invalidState(`Cannot ${t.verb} an invoice that is ${from === 'new' ? 'not issued' : from}`);
  }
  return { to: t.to, event: t.event };
}

/** Moves `invoice` by `trigger` (the only place an invoice status is written) and answers the event. */
export function applyInvoiceTransition(invoice: { status: InvoiceState }, trigger: InvoiceTrigger): EventType {
  const { to, event } = invoiceTransition(invoice.status, trigger);
  invoice.status = to;
  return event;
}
