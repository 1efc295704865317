import {
  CHECKOUT_LINK_FIELDS,
  CheckoutLinkView,
  CheckoutResult,
  PayerPaymentView,
  PayerResult,
  PaymentLinkResponse,
  PaymentResponse,
} from '@app/contracts';
import { DomainError } from '@app/errors';

/** What the payer reads for each outcome: never the issuer's reason, which would serve a card tester. */
export const PAYER_MESSAGES: Readonly<Record<PayerResult['outcome'], string>> = {
  succeeded: 'Payment received. Thank you.',
  declined: 'Your card was declined. Try again or use another card.',
  failed: 'The payment could not be processed. No money was taken; please try again.',
  requires_action: 'Your bank asks you to confirm this payment.',
};

/**
 * The one answer of the checkout's pay and resume routes: the outcome with its message, the link as the
 * checkout page shows it, and of the payment only what the page needs (receipt, amount, a 3DS challenge).
 * The merchant sees everything else through its API and events.
 */
export function toPayerResult(result: CheckoutResult): PayerResult {
  return {
    outcome: result.outcome,
    message: PAYER_MESSAGES[result.outcome],
    link: toCheckoutLinkView(result.link),
    ...(result.payment ? { payment: toPayerPayment(result.payment) } : {}),
    ...(result.subscription
      ? { subscription: { id: result.subscription.id, status: result.subscription.status } }
      : {}),
    ...(result.returnUrl ? { returnUrl: result.returnUrl } : {}),
  };
}

export function toCheckoutLinkView(link: PaymentLinkResponse): CheckoutLinkView {
  const view: Record<string, unknown> = {};
  for (const field of CHECKOUT_LINK_FIELDS) if (link[field] !== undefined) view[field] = link[field];
  return view as unknown as CheckoutLinkView;
}

function toPayerPayment(p: PaymentResponse): PayerPaymentView {
  return {
    id: p.id,
    paymentCode: p.paymentCode,
    status: p.status,
    amount: p.amount,
    ...(p.actionRequired ? { actionRequired: p.actionRequired } : {}),
  };
}

/**
 * A refusal as the payer may see it: a decline loses its payment id, refusal code and the reason in its
 * message; other errors (validation, the link's state) pass as they are.
 */
export function toPayerError(e: unknown): unknown {
  if (e instanceof DomainError && e.code === 'PAYMENT_DECLINED') {
    return new DomainError('PAYMENT_DECLINED', PAYER_MESSAGES.declined);
  }
  return e;
}
