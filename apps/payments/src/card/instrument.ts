import { CardAddressDto, CardType } from '@app/contracts';

/**
 * A card ready for the acquirer, whichever way it came (raw card data, SDK nonce, vault token). Lives only in
 * memory for the authorization: it holds the PAN, so it is never logged or stored as is.
 */
export interface ResolvedCard {
  source: 'cardData' | 'nonceData' | 'tokenData';
  cardNumber: string;
  expiryMonth: string;
  expiryYear: string;
  cvv?: string;
  cardholderName?: string | null;
  brand: string;
  type: CardType;
  cardAddress?: CardAddressDto;
  /** Store the card in the vault after an approval (`tokenize: true`). */
  tokenize: boolean;
  /** The SDK nonce it came from, for `nonceData`: put back (with its expiry) if the payment records nothing. */
  nonce?: { value: string; expiry: { expiresAt: Date; realExpiresAt: Date }; cardAddress?: CardAddressDto };
  /** The vault token it was paid with, for `tokenData`. */
  token?: string;
  /** Network ids remembered with a stored card, cited on merchant-initiated charges. */
  networkTransactionId?: string | null;
  networkReferenceId?: string | null;
}
