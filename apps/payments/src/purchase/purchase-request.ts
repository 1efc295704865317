import { isPaymentMethod, PaymentMethod, PurchaseRequest } from '@app/contracts';
import { DomainError } from '@app/errors';
import { Amount } from '@app/money';
import { PaymentIntent } from '../payment/payment.entity';

export interface PreparedPurchase {
  amount: Amount;
  method: PaymentMethod;
}

/**
 * The checks a purchase or authorization passes before any state is read: the method is known, the amount
 * is valid money (400, or 422 INVALID_EXPONENT), a card payment has a card, a tokenization names the shopper.
 */
export function preparePurchase(body: PurchaseRequest, intent: PaymentIntent): PreparedPurchase {
  const method = body.paymentMethod ?? 'card';
  if (!isPaymentMethod(method)) {
    throw DomainError.validation(`unsupported paymentMethod "${method}"`, 'paymentMethod');
  }
  const amount = Amount.of(body.amount);
  // Only a card authorization may be of 0: it verifies the card.
  if (amount.isZero && (intent === 'purchase' || method !== 'card')) {
    throw DomainError.validation(
      'amount.value must be positive; an authorization of 0 verifies a card',
      'amount.value',
    );
  }
  if (method === 'card') {
    if (!body.card) throw DomainError.validation('card is required for a card payment', 'card');
    const tokenize = body.card.cardData?.tokenize === true || body.card.nonceData?.tokenize === true;
    if (tokenize && !body.shopper?.id) {
      throw DomainError.validation('shopper.id is required when tokenizing a card', 'shopper.id');
    }
  } else if (body.card) {
    throw DomainError.validation(`card is not used with paymentMethod "${method}"; send apm`, 'card');
  }
  return { amount, method };
}
