import { InvoiceView } from '@app/contracts';
import { issuedStatus } from './invoice-state';
import { InvoiceEntity } from './invoice.entity';

/** `attempts` only on the single-invoice answer, never in lists. */
export function toInvoiceView(i: InvoiceEntity, withAttempts = false): InvoiceView {
  const view: InvoiceView = {
    id: i.id,
    subscriptionId: i.subscriptionId,
    status: issuedStatus(i.status),
    amount: i.amount,
    currency: i.currency,
    exponent: i.exponent,
    periodStart: i.periodStart.toISOString(),
    periodEnd: i.periodEnd.toISOString(),
    paymentAttemptCount: i.paymentAttemptCount,
    lines: i.lines,
    createdAt: i.createdAt.toISOString(),
    paidAt: i.paidAt ? i.paidAt.toISOString() : null,
  };
  if (withAttempts) view.attempts = i.attempts;
  return view;
}
