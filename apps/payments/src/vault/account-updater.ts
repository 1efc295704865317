import {
  AccountUpdaterAnswer,
  SANDBOX_UPDATED_CARD_NUMBER,
  SANDBOX_UPDATER_EXTRA_YEARS,
  sandboxBehaviour,
} from '@app/contracts';

/** What the account updater says about a card, with the new details of an update. */
export type UpdaterResult =
  | { answer: 'new_expiry'; expiryMonth: string; expiryYear: string }
  | { answer: 'new_number'; cardNumber: string; expiryMonth: string; expiryYear: string }
  | { answer: Exclude<AccountUpdaterAnswer, 'new_expiry' | 'new_number'> };

/**
 * The sandbox account updater (the card networks' service that tells a merchant a stored card's new number
 * or expiry): the sandbox test cards of sandbox-cards.ts declare its answer; any other card is unknown to it.
 */
export function sandboxAccountUpdate(card: {
  cardNumber: string;
  expiryMonth: string;
  expiryYear: string;
}): UpdaterResult {
  const behaviour = sandboxBehaviour(card.cardNumber);
  if (behaviour.kind !== 'updater') return { answer: 'no_information' };
  const later = String(Number(card.expiryYear) + SANDBOX_UPDATER_EXTRA_YEARS);
  switch (behaviour.answer) {
    case 'new_expiry':
      return { answer: 'new_expiry', expiryMonth: card.expiryMonth, expiryYear: later };
    case 'new_number':
      return {
        answer: 'new_number',
        cardNumber: SANDBOX_UPDATED_CARD_NUMBER,
        expiryMonth: card.expiryMonth,
        expiryYear: later,
      };
    default:
      return { answer: behaviour.answer };
  }
}
