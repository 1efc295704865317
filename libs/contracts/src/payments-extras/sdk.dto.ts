import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsISO31661Alpha2,
  IsISO4217CurrencyCode,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
// Not @app/money: it depends on @app/errors, which depends on this library.
import * as currencyCodes from 'currency-codes';
import { EmptyAsAbsent } from '../optional-text';
import { CardAddressDto } from '../payments/purchase.dto';
import { TextLimits } from '../text-limits';
import { MerchantCodeField } from '../merchant-code';
import { sandboxCardsDescription } from '../payments/sandbox-cards';

/** The amount a checkout is for, recorded in the client token for the SDK to show. */
export class SdkAmount {
  @ApiProperty({ example: 'USD' }) @IsISO4217CurrencyCode() currency: string;
  @ApiProperty({ example: 1000, description: 'Minor units' })
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  value: number;
  @ApiProperty({ example: 2 }) @IsInt() @Min(0) @Max(4) exponent: number;
}

/**
 * `amount` as an integer of minor units beside `currency` becomes the Amount it means, with the
 * currency's ISO 4217 exponent; anything else is left for the Amount rules to judge (a missing currency is
 * then `amount.currency`).
 */
export function minorUnitsAsAmount(value: unknown, currency: unknown): unknown {
  if (typeof value !== 'number') return value;
  const code = typeof currency === 'string' ? currency : undefined;
  return Object.assign(new SdkAmount(), {
    currency: code,
    value,
    exponent: code ? currencyCodes.code(code)?.digits : undefined,
  });
}

@ApiExtraModels(SdkAmount)
@TextLimits()
export class SdkSessionRequest {
  @MerchantCodeField() merchantCode?: string;

  @ApiPropertyOptional({ example: 'BR', description: 'ISO 3166-1 alpha-2 country of the checkout' })
  @IsOptional()
  @IsISO31661Alpha2()
  country?: string;

  @ApiPropertyOptional({ example: 'BRL' }) @IsOptional() @IsISO4217CurrencyCode() currency?: string;

  @ApiPropertyOptional({
    oneOf: [{ type: 'integer', minimum: 0 }, { $ref: getSchemaPath(SdkAmount) }],
    description: 'Minor units of `currency` (as the provider sends it, e.g. 1050), or an Amount object',
    example: { currency: 'BRL', value: 1050, exponent: 2 },
  })
  @IsOptional()
  @Transform(({ value, obj }: { value: unknown; obj: { currency?: unknown } }) =>
    minorUnitsAsAmount(value, obj.currency),
  )
  @IsObject()
  @ValidateNested()
  @Type(() => SdkAmount)
  amount?: SdkAmount;

  @ApiPropertyOptional({ description: "The merchant's id of the shopper", maxLength: 255 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  customerId?: string;

  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() checkoutConfigId?: string;
}

export class SdkSessionResponse {
  @ApiProperty({ description: 'JWT for the browser SDK (Authorization: Bearer <clientToken>); valid 30 minutes' })
  clientToken: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

/** The raw card the browser SDK collects; it becomes a single-use nonce. */
@TextLimits()
export class NonceCardData {
  @ApiProperty({
    example: '4111111111111111',
    description: `Digits only; Luhn-checked.\n\n${sandboxCardsDescription()}`,
  })
  @IsString()
  @Matches(/^\d{12,19}$/, { message: 'cardNumber must be 12 to 19 digits' })
  cardNumber: string;

  @ApiPropertyOptional()
  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  cardholderName?: string;

  @ApiProperty({ example: '12' })
  @IsString()
  @Matches(/^(0[1-9]|1[0-2])$/, { message: 'expiryMonth must be "01" to "12"' })
  expiryMonth: string;

  @ApiProperty({ example: '2030' })
  @IsString()
  @Matches(/^\d{4}$/, { message: 'expiryYear must be four digits' })
  expiryYear: string;

  @ApiPropertyOptional({ example: '123' })
  @IsOptional()
  @IsString()
  @Matches(/^\d{3,4}$/, { message: 'cvv must be 3 or 4 digits' })
  cvv?: string;

  @ApiPropertyOptional({ type: CardAddressDto, description: 'The billing address; the payment may give its own' })
  @IsOptional()
  @ValidateNested()
  @Type(() => CardAddressDto)
  cardAddress?: CardAddressDto;
}

export class CreateNonceRequest {
  @ApiProperty({ type: NonceCardData })
  @IsObject()
  @ValidateNested()
  @Type(() => NonceCardData)
  cardData: NonceCardData;
}

export class NonceResponse {
  @ApiProperty({ description: 'Single-use; pass it as card.nonceData.nonce within 15 minutes' }) nonce: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}
