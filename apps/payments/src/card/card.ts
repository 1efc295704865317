import { CardType, CardView, Environment } from '@app/contracts';
import { DomainError } from '@app/errors';
import { cardExpired, luhnValid } from './card-checks';

/** Card brand from the IIN (issuer identification number) ranges of the networks. */
export function cardBrand(pan: string): string {
  const p2 = Number(pan.slice(0, 2));
  const p3 = Number(pan.slice(0, 3));
  const p4 = Number(pan.slice(0, 4));
  const p6 = Number(pan.slice(0, 6));
  if (pan.startsWith('4')) return 'visa';
  if ((p2 >= 51 && p2 <= 55) || (p6 >= 222100 && p6 <= 272099)) return 'mastercard';
  if (p2 === 34 || p2 === 37) return 'amex';
  if (p4 === 6011 || p2 === 65 || (p3 >= 644 && p3 <= 649) || (p6 >= 622126 && p6 <= 622925)) return 'discover';
  if (p4 >= 3528 && p4 <= 3589) return 'jcb';
  if ((p3 >= 300 && p3 <= 305) || p2 === 36 || p2 === 38 || p2 === 39) return 'diners';
  if (p2 === 62) return 'unionpay';
  return 'unknown';
}

/** First 6, four asterisks, last 4, whatever the length: never more of the PAN. */
export function maskCardNumber(pan: string): string {
  return `${pan.slice(0, 6)}****${pan.slice(-4)}`;
}

/** The sandbox issues credit cards; a merchant that knows better sends `typeOverride`. */
export function cardType(override?: CardType): CardType {
  return override ?? 'credit';
}

/** The response `card` of a payment. */
export function cardView(
  card: { cardNumber: string; brand: string; type: CardType; expiryMonth: string; expiryYear: string },
  network: { networkTransactionId?: string | null; networkReferenceId?: string | null } = {},
): CardView {
  return {
    cardData: {
      brand: card.brand,
      cardNumber: maskCardNumber(card.cardNumber),
      type: card.type,
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear,
    },
    networkTransactionId: network.networkTransactionId ?? null,
    networkReferenceId: network.networkReferenceId ?? null,
  };
}

/**
 * Two of the sandbox test numbers (sandbox-cards.ts) that fail the Luhn check (the amex 374251018720955 and the
 * decline card 4000000000001341); the documented test values win, so the sandbox accepts them as they are.
 * Production never does: a test card means nothing to a real provider.
 */
export const LUHN_EXEMPT_TEST_CARDS: ReadonlySet<string> = new Set(['374251018720955', '4000000000001341']);

/**
 * 400 VALIDATION_FAILED for a Luhn-invalid number (in the sandbox, but for the two test numbers) or a past
 * expiry; `now` from the clock.
 */
export function assertUsableCard(
  card: { cardNumber: string; expiryMonth: string; expiryYear: string },
  now: Date,
  prefix: string,
  environment: Environment,
): void {
  const exempt = environment === 'sandbox' && LUHN_EXEMPT_TEST_CARDS.has(card.cardNumber);
  if (!luhnValid(card.cardNumber) && !exempt) {
    throw DomainError.validation(`${prefix}.cardNumber is not a valid card number (Luhn)`, `${prefix}.cardNumber`);
  }
  if (cardExpired(card.expiryMonth, card.expiryYear, now)) {
    throw DomainError.validation('The card has expired', `${prefix}.expiryYear`);
  }
}
