import { PayLinkRequest } from '@app/contracts';
import { DomainError } from '@app/errors';
import { checkedExponent } from '../link/link-rules';
import { PaymentLinkEntity } from '../link/payment-link.entity';

/**
 * The amount a payer pays through a link, after its rules (checked once the link's state allowed paying):
 * a fixed link's own amount (a sent amount must match it); a customer_entered one's entered amount in the
 * link's currency (422 CURRENCY_MISMATCH), with its exponent (422 INVALID_EXPONENT), within amountMin–amountMax
 * (400 VALIDATION_FAILED `amount.value`). A subscription link charges its plan: no amount.
 */
export function amountToPay(link: PaymentLinkEntity, request: PayLinkRequest): number | null {
  const sent = request.amount;
  if (link.type === 'subscription') {
    if (sent) throw DomainError.validation('A subscription link charges its plan’s amount', 'amount');
    return null;
  }
  const currency = link.currency!;
  if (link.amountMode === 'customer_entered' && !sent) {
    throw DomainError.validation('amount is required: enter the amount to pay', 'amount');
  }
  if (sent) {
    if (sent.currency !== currency) {
      throw new DomainError(
        'CURRENCY_MISMATCH',
        `This link takes ${currency}, got ${sent.currency}`,
        'amount.currency',
      );
    }
    checkedExponent(sent.currency, sent.exponent);
  }
  if (link.amountMode === 'fixed') {
    if (sent && sent.value !== link.amountValue) {
      throw DomainError.validation('This link has a fixed amount; send none or exactly it', 'amount.value');
    }
    return link.amountValue!;
  }
  const value = sent!.value;
  if (value < link.amountMin! || value > link.amountMax!) {
    throw DomainError.validation(
      `amount.value must be between ${link.amountMin} and ${link.amountMax} (minor units)`,
      'amount.value',
    );
  }
  return value;
}

/** A subscription link enrolls someone: the payer's email, or the one the link was made for. */
export function subscriberOf(link: PaymentLinkEntity, request: PayLinkRequest): { email: string; name?: string } {
  const email = request.customerEmail || link.customerEmail;
  if (!email) throw DomainError.validation('customerEmail is required to subscribe', 'customerEmail');
  const name = request.customerName || link.customerName || undefined;
  return { email, ...(name ? { name } : {}) };
}
