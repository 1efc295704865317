import { uuidv7 } from '@app/clock';
import { EventType, PaymentResponse } from '@app/contracts';
import { PlanEntity } from '../plan/plan.entity';
import { invoiceAttempt } from './invoice-attempt';
import { applyInvoiceTransition, INVOICE_MACHINE } from './invoice-state';
import { InvoiceEntity } from './invoice.entity';

export interface PaidInvoiceInput {
  /** The subscription the invoice bills: its id and the scope the invoice shares with it. */
  subscription: { id: string } & Pick<InvoiceEntity, 'merchantCode' | 'environment'>;
  plan: PlanEntity;
  periodStart: Date;
  periodEnd: Date;
  amount: number;
  /** The charge that paid it (or the customer's own CIT, in record mode with firstPaymentId). */
  payment: Pick<PaymentResponse, 'id' | 'status'> & Partial<Pick<PaymentResponse, 'connectionCode' | 'cascade'>>;
  description: string;
  now: Date;
}

/**
 * An invoice issued and paid at once by a charge that already succeeded, with its events. `lines` only when
 * the plan prices meters (one base line, then one line per meter).
 */
export function paidInvoice(i: PaidInvoiceInput): { invoice: InvoiceEntity; events: EventType[] } {
  const invoice: InvoiceEntity = {
    id: uuidv7(),
    subscriptionId: i.subscription.id,
    merchantCode: i.subscription.merchantCode,
    environment: i.subscription.environment,
    status: INVOICE_MACHINE.spec.initial,
    amount: i.amount,
    currency: i.plan.currency,
    exponent: i.plan.exponent,
    periodStart: i.periodStart,
    periodEnd: i.periodEnd,
    paymentAttemptCount: 1,
    lines: i.plan.meterCodes.length ? [{ description: i.description, amount: i.amount }] : [],
    attempts: [{ ...invoiceAttempt(i.now, i.payment), refusalCode: null }],
    paidAt: i.now,
    createdAt: i.now,
    updatedAt: i.now,
  };
  const events = [applyInvoiceTransition(invoice, 'issue'), applyInvoiceTransition(invoice, 'pay')];
  return { invoice, events };
}
