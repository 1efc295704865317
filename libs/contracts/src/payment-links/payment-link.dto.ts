import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsISO8601,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IsMetadata } from '../payments/validators';
import { PageQuery } from '../query.dto';
import { TextLimits } from '../text-limits';
import { MerchantCodeField } from '../merchant-code';

export const LINK_TYPES = ['one-time', 'subscription'] as const;
export type LinkType = (typeof LINK_TYPES)[number];
export const LINK_STATUSES = ['active', 'used', 'expired', 'cancelled'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];
export const AMOUNT_MODES = ['fixed', 'customer_entered'] as const;
export type AmountMode = (typeof AMOUNT_MODES)[number];

/** A link's amount: `value` is absent on a customer_entered link (the payer enters it). */
export class LinkAmountDto {
  @ApiProperty({ example: 'USD' })
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code (three capital letters)' })
  currency: string;

  @ApiPropertyOptional({ example: 2500, description: 'Minor units; required on fixed links, absent otherwise' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  value?: number;

  @ApiProperty({ example: 2 }) @IsInt() @Min(0) @Max(18) exponent: number;
}

/** POST /v1/payment-link (docs/api.md, Payment links and checkout). */
@TextLimits()
export class CreatePaymentLinkRequest {
  @MerchantCodeField() merchantCode?: string;

  @ApiPropertyOptional({ enum: LINK_TYPES, default: 'one-time' }) @IsOptional() @IsIn(LINK_TYPES) type?: LinkType;

  @ApiPropertyOptional({ enum: AMOUNT_MODES, default: 'fixed' })
  @IsOptional()
  @IsIn(AMOUNT_MODES)
  amountMode?: AmountMode;

  @ApiPropertyOptional({ type: LinkAmountDto, description: 'Required unless the link is a subscription link' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => LinkAmountDto)
  amount?: LinkAmountDto;

  @ApiPropertyOptional({ description: 'customer_entered: lowest amount the payer may enter, minor units' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  amountMin?: number;

  @ApiPropertyOptional({ description: 'customer_entered: highest amount the payer may enter, minor units' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  amountMax?: number;

  @ApiPropertyOptional({ description: 'Subscription links: an active plan of the same merchant and environment' })
  @IsOptional()
  @IsInt()
  @Min(1)
  subscriptionPlanId?: number;

  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() checkoutConfigId?: string;

  @ApiPropertyOptional() @IsOptional() @IsString() title?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() description?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() reference?: string;

  @ApiPropertyOptional({ description: 'Prefills the payer’s email' })
  @IsOptional()
  @ValidateIf((o: CreatePaymentLinkRequest) => o.customerEmail !== '')
  @IsEmail()
  customerEmail?: string;

  @ApiPropertyOptional() @IsOptional() @IsString() customerName?: string;

  @ApiPropertyOptional({ description: 'Where the payer goes after a successful payment (http or https)' })
  @IsOptional()
  @ValidateIf((o: CreatePaymentLinkRequest) => o.returnUrl !== '')
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'returnUrl must be an http(s) URL' },
  )
  returnUrl?: string;

  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() saveCardEnabled?: boolean;

  @ApiPropertyOptional({ default: false, description: 'Whether many payers may pay the link' })
  @IsOptional()
  @IsBoolean()
  reusable?: boolean;

  @ApiPropertyOptional({ description: 'Reusable links: successful payments after which the link is used' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  maxUses?: number;

  @ApiPropertyOptional({ format: 'date-time', description: 'Default 24 hours ahead for single-use links' })
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true })
  expiresAt?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @IsOptional()
  @IsObject()
  @IsMetadata()
  metadata?: Record<string, string>;
}

export class PaymentLinkAmountView {
  @ApiProperty() currency: string;
  @ApiPropertyOptional() value?: number;
  @ApiProperty() exponent: number;
}

/** A payment link as the API answers it. */
export class PaymentLinkResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'Hosted checkout URL to share with the payer' }) url: string;
  @ApiProperty({ enum: LINK_TYPES }) type: LinkType;
  @ApiProperty({ enum: LINK_STATUSES }) status: LinkStatus;
  @ApiProperty({ enum: AMOUNT_MODES }) amountMode: AmountMode;
  @ApiPropertyOptional({ type: PaymentLinkAmountView }) amount?: PaymentLinkAmountView;
  @ApiPropertyOptional() amountMin?: number;
  @ApiPropertyOptional() amountMax?: number;
  @ApiPropertyOptional() subscriptionPlanId?: number;
  @ApiPropertyOptional() checkoutConfigId?: string;
  @ApiPropertyOptional() title?: string;
  @ApiPropertyOptional() description?: string;
  @ApiPropertyOptional() reference?: string;
  @ApiPropertyOptional() customerEmail?: string;
  @ApiPropertyOptional() customerName?: string;
  @ApiPropertyOptional() returnUrl?: string;
  @ApiProperty() saveCardEnabled: boolean;
  @ApiProperty() reusable: boolean;
  @ApiPropertyOptional({ description: '1 on a single-use link; absent on a reusable link without a limit' })
  maxUses?: number;
  @ApiProperty() usesCount: number;
  @ApiProperty({ enum: ['production', 'sandbox'] }) environment: string;
  @ApiProperty() merchantCode: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) metadata: Record<string, string>;
  @ApiPropertyOptional({ format: 'date-time' }) expiresAt?: string;
  @ApiPropertyOptional({ format: 'date-time' }) usedAt?: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class ListPaymentLinksQuery extends PageQuery {
  @ApiPropertyOptional({ enum: LINK_STATUSES }) @IsOptional() @IsIn(LINK_STATUSES) status?: LinkStatus;
}

/** Command body naming one link of the caller. */
export class PaymentLinkIdCommand {
  @IsString() @MaxLength(255) id: string;
}

/** What the gateway forwards for GET /v1/payment-link. */
@TextLimits()
export class ListPaymentLinksCommand {
  @IsOptional() @IsInt() @Min(1) @Max(100) limit?: number;
  @IsOptional() @IsString() startingAfter?: string;
  @IsOptional() @IsIn(LINK_STATUSES) status?: LinkStatus;
}
