import { IsString, Length } from 'class-validator';

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
