import { ApiProperty } from '@nestjs/swagger';
import { IsISO8601, IsString, Length } from 'class-validator';

/** `cmd.payments.token.get` body. */
export class TokenLookupCommand {
  @IsString() @Length(1, 255) token: string;
}

/** A vault token's card, as billing reads a mandate: never the PAN. */
export interface StoredTokenView {
  token: string;
  brand: string;
  /** First 6, four asterisks, last 4. */
  cardNumber: string;
  type: string;
  expirationDate: string;
  shopperId: string;
  networkTransactionId: string | null;
  networkReferenceId: string | null;
}

/** What the account updater answers about a vaulted card (docs/testing.md lists the sandbox's test cards). */
export const ACCOUNT_UPDATER_ANSWERS = ['new_expiry', 'new_number', 'closed', 'no_information'] as const;
export type AccountUpdaterAnswer = (typeof ACCOUNT_UPDATER_ANSWERS)[number];

/** `cmd.payments.token.check` body: billing asks whether a token's card is still good `before` a renewal. */
export class CardCheckCommand {
  @IsString() @Length(1, 255) token: string;
  @IsISO8601({ strict: true }) before: string;
}

/**
 * The answer: `current` when the card's expiry is not before `before` (nothing asked), else the account
 * updater's answer; the token is unchanged either way (an update is made in place).
 */
export interface CardCheckResult {
  token: string;
  result: 'current' | AccountUpdaterAnswer;
  expirationDate: string;
}

/** `data` of `payment_method.updated` and `payment_method.expiring`: the vaulted card, never its number. */
export class PaymentMethodEventView {
  @ApiProperty({ example: 'vt_…', description: 'The vault token: unchanged by an update' }) token: string;
  @ApiProperty({ description: 'The shopper the card was stored for (a subscription id for billing)' })
  shopperId: string;
  @ApiProperty({ example: 'visa' }) brand: string;
  @ApiProperty({ example: '1111' }) last4: string;
  @ApiProperty({ description: 'End of the card’s expiry month' }) expirationDate: string;
  @ApiProperty({
    enum: ACCOUNT_UPDATER_ANSWERS,
    description:
      '`new_expiry` and `new_number` (updated): the card was updated in place; `closed` and `no_information` ' +
      '(expiring): the card expires before its next use and nothing could update it; ask the customer',
  })
  updaterAnswer: AccountUpdaterAnswer;
}
