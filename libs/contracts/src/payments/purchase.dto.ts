import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsIP,
  IsISO31661Alpha2,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { AmountDto } from './amount.dto';
import { CARD_ON_FILE_INITIATORS, CARD_ON_FILE_TYPES, CARD_TYPES } from './payment-types';
import { IsMetadata } from './validators';
import { EmptyAsAbsent } from '../optional-text';
import { FieldAliases } from '../field-aliases';
import { TextLimits } from '../text-limits';
import { MerchantCodeField } from '../merchant-code';
import { sandboxCardsDescription } from './sandbox-cards';

/** A merchant-supplied receipt id: it is also a path segment of the inquiry route, so no slashes or spaces. */
export const PAYMENT_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:#-]{0,63}$/;

/** The provider's plugins send `address1`, `address2` and `countryCode`. */
@FieldAliases({ address1: 'line1', address2: 'line2', countryCode: 'country' })
@TextLimits()
export class CardAddressDto {
  @ApiPropertyOptional({ description: 'Also accepted as `address1`' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  line1?: string;
  @ApiPropertyOptional({ description: 'Also accepted as `address2`' }) @IsOptional() @IsString() line2?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MinLength(1) city?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MinLength(1) state?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MinLength(1) postalCode?: string;
  @ApiPropertyOptional({ example: 'US', description: 'ISO 3166-1 alpha-2; also accepted as `countryCode`' })
  @IsOptional()
  @IsISO31661Alpha2()
  country?: string;
}

@TextLimits()
export class CardDataDto {
  @ApiProperty({
    example: '4111111111111111',
    description: `Digits only; must pass the Luhn check.\n\n${sandboxCardsDescription()}`,
  })
  @IsString()
  @Matches(/^\d{12,19}$/, { message: 'cardNumber must be 12-19 digits' })
  cardNumber: string;

  @ApiPropertyOptional({ example: 'Jane Doe' })
  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  @MinLength(1)
  cardholderName?: string;

  @ApiProperty({ example: '12', description: '"MM"' })
  @IsString()
  @Matches(/^(0[1-9]|1[0-2])$/, { message: 'expiryMonth must be "MM" (01-12)' })
  expiryMonth: string;

  @ApiProperty({ example: '2030', description: '"YYYY"' })
  @IsString()
  @Matches(/^\d{4}$/, { message: 'expiryYear must be "YYYY"' })
  expiryYear: string;

  @ApiPropertyOptional({ example: '123', description: '3-4 digits; never stored' })
  @IsOptional()
  @IsString()
  @Matches(/^\d{3,4}$/, { message: 'cvv must be 3-4 digits' })
  cvv?: string;

  @ApiPropertyOptional({ description: 'Store the card in the vault (needs shopper.id)' })
  @IsOptional()
  @IsBoolean()
  tokenize?: boolean;

  @ApiPropertyOptional({ type: CardAddressDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => CardAddressDto)
  cardAddress?: CardAddressDto;

  @ApiPropertyOptional() @IsOptional() @IsString() @MinLength(1) documentNumber?: string;

  @ApiPropertyOptional({ enum: CARD_TYPES }) @IsOptional() @IsIn(CARD_TYPES) typeOverride?: 'credit' | 'debit';
}

@TextLimits()
export class NonceDataDto {
  @ApiProperty({ description: 'From POST /v1/sdk/nonce' }) @IsString() @MinLength(1) nonce: string;
  @ApiPropertyOptional() @EmptyAsAbsent() @IsOptional() @IsString() @MinLength(1) cardholderName?: string;

  @ApiPropertyOptional({ type: CardAddressDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => CardAddressDto)
  cardAddress?: CardAddressDto;

  @ApiPropertyOptional() @IsOptional() @IsBoolean() tokenize?: boolean;
  @ApiPropertyOptional({ enum: CARD_TYPES }) @IsOptional() @IsIn(CARD_TYPES) typeOverride?: 'credit' | 'debit';
}

@TextLimits()
export class TokenDataDto {
  @ApiProperty({ example: 'vt_…' }) @IsString() @MinLength(1) token: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Matches(/^\d{3,4}$/, { message: 'cvv must be 3-4 digits' })
  cvv?: string;

  @ApiPropertyOptional({ type: CardAddressDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => CardAddressDto)
  cardAddress?: CardAddressDto;
}

export class CardOnFileDto {
  @ApiProperty({ enum: CARD_ON_FILE_TYPES }) @IsIn(CARD_ON_FILE_TYPES) type: (typeof CARD_ON_FILE_TYPES)[number];

  @ApiProperty({ enum: CARD_ON_FILE_INITIATORS, description: '`merchant` marks a merchant-initiated transaction' })
  @IsIn(CARD_ON_FILE_INITIATORS)
  initiator: (typeof CARD_ON_FILE_INITIATORS)[number];
}

/** Exactly one instrument among cardData, nonceData and tokenData, plus stored-credential modifiers. */
@TextLimits()
export class CardRequestDto {
  @ApiPropertyOptional({ type: CardDataDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => CardDataDto)
  cardData?: CardDataDto;

  @ApiPropertyOptional({ type: NonceDataDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => NonceDataDto)
  nonceData?: NonceDataDto;

  @ApiPropertyOptional({ type: TokenDataDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => TokenDataDto)
  tokenData?: TokenDataDto;

  @ApiPropertyOptional({ type: CardOnFileDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => CardOnFileDto)
  cardOnFile?: CardOnFileDto;

  @ApiPropertyOptional({ example: 3 }) @IsOptional() @IsInt() @Min(1) @Max(99) instalments?: number;

  @ApiPropertyOptional({ description: 'Network transaction id of the original cardholder-initiated payment' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  networkTransactionId?: string;

  @ApiPropertyOptional() @IsOptional() @IsString() @MinLength(1) networkReferenceId?: string;
}

/** APM details; which fields a method needs is checked by the service per `paymentMethod`. */
@TextLimits()
export class ApmRequestDto {
  @ApiPropertyOptional({ description: 'pix, boleto' }) @IsOptional() @IsString() @MinLength(1) payerDocument?: string;

  @ApiPropertyOptional({ description: 'pix' })
  @IsOptional()
  @IsInt()
  @Min(60)
  @Max(30 * 24 * 3600)
  expiresInSeconds?: number;

  @ApiPropertyOptional({ description: 'boleto' }) @IsOptional() @IsString() @MinLength(1) payerName?: string;

  @ApiPropertyOptional({ description: 'boleto, "YYYY-MM-DD"' })
  @IsOptional()
  @IsString()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'dueDate must be "YYYY-MM-DD"' })
  dueDate?: string;

  @ApiPropertyOptional({ description: 'ach' }) @IsOptional() @IsString() @MinLength(1) accountHolderName?: string;
  @ApiPropertyOptional({ description: 'ach' }) @IsOptional() @IsString() @MinLength(1) accountNumber?: string;
  @ApiPropertyOptional({ description: 'ach' }) @IsOptional() @IsString() @MinLength(1) routingNumber?: string;

  @ApiPropertyOptional({ enum: ['checking', 'savings'], description: 'ach' })
  @IsOptional()
  @IsIn(['checking', 'savings'])
  accountType?: 'checking' | 'savings';
}

@TextLimits()
export class ShopperDto {
  @ApiPropertyOptional({ description: 'The merchant’s id of the shopper; required when tokenizing' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  id?: string;

  @ApiPropertyOptional() @IsOptional() @IsEmail() @MinLength(1) email?: string;
  @ApiPropertyOptional() @EmptyAsAbsent() @IsOptional() @IsString() @MinLength(1) name?: string;
}

@TextLimits()
export class ThreeDsSetupDto {
  @ApiPropertyOptional({ description: 'Device-data-collection session id, on a retry of the original request' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  sessionId?: string;
}

/** POST /v1/payment/purchase and /v1/payment/authorization. */
@TextLimits()
export class PurchaseRequest {
  @MerchantCodeField() merchantCode?: string;

  @ApiProperty({ example: 'order-1001', description: 'The merchant’s order reference' })
  @IsString()
  @MinLength(1)
  orderCode: string;

  @ApiPropertyOptional({
    description:
      'The merchant’s receipt id, unique in its environment across merchants (one another merchant uses is 409 ' +
      'DUPLICATE_PAYMENT_CODE: the keyless inquiry answers it); generated when absent',
  })
  @IsOptional()
  @IsString()
  @Matches(PAYMENT_CODE_PATTERN, { message: 'paymentCode must be 1-64 letters, digits or . _ : # -' })
  paymentCode?: string;

  @ApiProperty({ type: AmountDto }) @IsObject() @ValidateNested() @Type(() => AmountDto) amount: AmountDto;

  @ApiPropertyOptional({ type: CardRequestDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => CardRequestDto)
  card?: CardRequestDto;

  @ApiPropertyOptional({ type: ApmRequestDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => ApmRequestDto)
  apm?: ApmRequestDto;

  @ApiPropertyOptional({ example: 'card', description: 'Omit for card; `pix`, `boleto` or `ach` for an APM' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  paymentMethod?: string;

  @ApiPropertyOptional({ type: ShopperDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => ShopperDto)
  shopper?: ShopperDto;

  @ApiPropertyOptional({ example: 'https://shop.example.com/hooks/payments' })
  @IsOptional()
  @IsUrl(
    { protocols: ['https'], require_protocol: true, require_tld: false },
    { message: 'webhookUrl must be an https URL' },
  )
  @MinLength(1)
  webhookUrl?: string;

  @ApiPropertyOptional({ description: 'Pins the payment to one connection' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  connectionCode?: string;

  @ApiPropertyOptional({ example: '203.0.113.7' }) @IsOptional() @IsIP() ipAddress?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'At most 50 string pairs; key ≤ 40 characters, value ≤ 500',
  })
  @IsOptional()
  @IsObject()
  @IsMetadata()
  metadata?: Record<string, string>;

  @ApiPropertyOptional({ type: ThreeDsSetupDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => ThreeDsSetupDto)
  threeDsSetup?: ThreeDsSetupDto;
}
