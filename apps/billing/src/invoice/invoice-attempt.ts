import { InvoiceAttemptView, PaymentResponse } from '@app/contracts';
import { InvoiceEntity } from './invoice.entity';

/**
 * One charge of an invoice as the invoice keeps it: when, which payment and its status, its refusal, the
 * connection that answered (the one that charged, when captured) and, after a cascade, every connection tried.
 */
export function invoiceAttempt(
  at: Date,
  payment: Pick<PaymentResponse, 'id' | 'status'> &
    Partial<Pick<PaymentResponse, 'refusalCode' | 'connectionCode' | 'cascade'>>,
): InvoiceAttemptView {
  return {
    at: at.toISOString(),
    paymentId: payment.id,
    status: payment.status,
    refusalCode: payment.refusalCode ?? null,
    ...(payment.connectionCode ? { connectionCode: payment.connectionCode } : {}),
    ...(payment.cascade?.length ? { cascade: payment.cascade } : {}),
  };
}

/**
 * The connections that declined the invoice's last charge (none when it was not declined, or was recorded
 * before invoices named connections): a dunning or forced retry goes to the merchant's other connections first.
 */
export function declinedLast(invoice: Pick<InvoiceEntity, 'attempts'>): string[] {
  const last = invoice.attempts[invoice.attempts.length - 1];
  if (!last || last.status !== 'declined') return [];
  if (last.cascade?.length) {
    return last.cascade.filter((a) => a.outcome === 'declined').map((a) => a.connectionCode);
  }
  return last.connectionCode ? [last.connectionCode] : [];
}
