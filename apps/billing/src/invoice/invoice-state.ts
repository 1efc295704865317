import { EventType, EventTypes, INVOICE_STATUSES, InvoiceStatus } from '@app/contracts';
import { defineMachine } from '@app/state-machine';

export type InvoiceState = InvoiceStatus | 'new';
export type InvoiceTrigger = 'issue' | 'pay' | 'fail' | 'void';

/** The one table of invoice state changes: issued open, then paid, failed or void, and final there. */
export const INVOICE_MACHINE = defineMachine<InvoiceState, InvoiceTrigger, EventType>({
  name: 'invoice',
  states: ['new', ...INVOICE_STATUSES],
  initial: 'new',
  moves: {
    issue: { from: ['new'], to: 'open', emits: [EventTypes.invoiceCreated], verb: 'issue' },
    pay: { from: ['open'], to: 'paid', emits: [EventTypes.invoicePaid], verb: 'pay' },
    fail: { from: ['open'], to: 'failed', emits: [EventTypes.invoiceFailed], verb: 'fail' },
    void: { from: ['open'], to: 'void', emits: [EventTypes.invoiceVoided], verb: 'void' },
  },
  refusal: (verb, from) => `Cannot ${verb} an invoice that is ${from === 'new' ? 'not issued' : from}`,
});

/** Moves `invoice` by `trigger` (the only place an invoice status is written) and answers its one event. */
export function applyInvoiceTransition(invoice: { status: InvoiceState }, trigger: InvoiceTrigger): EventType {
  return INVOICE_MACHINE.apply(invoice, trigger)[0];
}

/** The API's status of an issued invoice; one not issued yet is in no view, so one reaching a view is a bug. */
export function issuedStatus(state: InvoiceState): InvoiceStatus {
  if (state === 'new') throw new Error('An invoice that is not issued has no API status yet');
  return state;
}
