import { SubscriptionCardDto } from '@app/contracts';
import { DomainError } from '@app/errors';
import { PresentCard } from '../payments/payments.client';

/** CIT mode (the customer is present with card or nonce data) or record mode (an existing vault token). */
export type Instrument =
  | { mode: 'cit'; card: PresentCard; country?: string; countryParam: string }
  | { mode: 'record'; token: string; country?: string; countryParam: string };

/** Exactly one of cardData, nonceData and tokenData (400 naming `card` otherwise). */
export function instrumentOf(card: SubscriptionCardDto): Instrument {
  // null counts as absent: the optional fields' validation lets it through.
  const given = (['cardData', 'nonceData', 'tokenData'] as const).filter((k) => card[k] != null);
  if (given.length !== 1) {
    throw DomainError.validation('card needs exactly one of cardData, nonceData and tokenData', 'card');
  }
  if (card.tokenData) {
    return {
      mode: 'record',
      token: card.tokenData.token,
      country: card.tokenData.cardAddress?.country,
      countryParam: 'card.tokenData.cardAddress.country',
    };
  }
  if (card.cardData) {
    return {
      mode: 'cit',
      card: { cardData: card.cardData },
      country: card.cardData.cardAddress?.country,
      countryParam: 'card.cardData.cardAddress.country',
    };
  }
  return {
    mode: 'cit',
    card: { nonceData: card.nonceData! },
    country: card.nonceData!.cardAddress?.country,
    countryParam: 'card.nonceData.cardAddress.country',
  };
}
