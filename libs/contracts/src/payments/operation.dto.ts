import { PageQuery } from '../query.dto';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { PAYMENT_STATUSES } from './payment-types';
import { AmountDto } from './amount.dto';
import { EmptyAsAbsent } from '../optional-text';
import { TextLimits } from '../text-limits';
import { MerchantCodeField } from '../merchant-code';

/** capture and refund. */
@TextLimits()
export class CaptureRequest {
  @MerchantCodeField() merchantCode?: string;
  @ApiProperty({ type: AmountDto }) @IsObject() @ValidateNested() @Type(() => AmountDto) amount: AmountDto;
  @ApiPropertyOptional({ description: 'Your internal reference' })
  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  @MinLength(1)
  reference?: string;
}

/** Why a refund was made, as the merchant tells it: shown with the refund in the API and the dashboard. */
@TextLimits()
export class RefundRequest extends CaptureRequest {
  @ApiPropertyOptional({
    example: 'Customer returned the item',
    description: 'Why the refund is made, up to 255 characters',
  })
  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  @MinLength(1)
  reason?: string;
}

@TextLimits()
export class CancelRequest {
  @MerchantCodeField() merchantCode?: string;

  @ApiPropertyOptional({ type: AmountDto, description: 'Optional; when sent it must be the whole authorized amount' })
  @IsOptional()
  @ValidateNested()
  @Type(() => AmountDto)
  amount?: AmountDto;

  @ApiPropertyOptional() @EmptyAsAbsent() @IsOptional() @IsString() @MinLength(1) reference?: string;
}

@TextLimits()
export class CancelOrRefundRequest {
  @MerchantCodeField() merchantCode?: string;

  @ApiPropertyOptional() @EmptyAsAbsent() @IsOptional() @IsString() @MinLength(1) reference?: string;
}

/** The command messages of the operations carry the payment id from the path next to the body. */
@TextLimits()
export class CaptureCommand extends CaptureRequest {
  @IsString() id: string;
}
@TextLimits()
export class RefundCommand extends RefundRequest {
  @IsString() id: string;
}
@TextLimits()
export class CancelCommand extends CancelRequest {
  @IsString() id: string;
}
@TextLimits()
export class CancelOrRefundCommand extends CancelOrRefundRequest {
  @IsString() id: string;
}

/** GET /v1/payment/{id} and /v1/payment/inquiry/{reference}. */
export class PaymentLookupCommand {
  @IsString() @Length(1, 255) reference: string;
}

/** The statuses a list filters on: every payment status, and `partially_refunded` (captured, part of it refunded). */
export const PAYMENT_LIST_STATUSES = [...PAYMENT_STATUSES, 'partially_refunded'] as const;
export type PaymentListStatus = (typeof PAYMENT_LIST_STATUSES)[number];

/**
 * GET /v1/payment: payments newest first, over the whole list; every filter given must hold. `startingAfter`
 * pages by (createdAt, id), so payments made while paging never shift a page.
 */
@TextLimits()
export class ListPaymentsQuery extends PageQuery {
  @ApiPropertyOptional({ example: 'order-1001', description: 'Exactly this orderCode' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  orderCode?: string;

  @ApiPropertyOptional({ example: 'order-10', description: 'The start of an orderCode or of a paymentCode' })
  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  @MinLength(1)
  search?: string;

  @ApiPropertyOptional({ example: 'ana@example.com', description: "The shopper's email, any case" })
  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  @MinLength(1)
  email?: string;

  @ApiPropertyOptional({ example: '1111', description: 'The last four digits of the card' })
  @EmptyAsAbsent()
  @IsOptional()
  @Matches(/^[0-9]{4}$/, { message: 'last4 must be four digits' })
  last4?: string;

  @ApiPropertyOptional({ enum: PAYMENT_LIST_STATUSES })
  @EmptyAsAbsent()
  @IsOptional()
  @IsIn(PAYMENT_LIST_STATUSES)
  status?: PaymentListStatus;

  @ApiPropertyOptional({ minimum: 0, description: 'Smallest amount, in minor units' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  amountMin?: number;

  @ApiPropertyOptional({ minimum: 0, description: 'Largest amount, in minor units' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  amountMax?: number;

  @ApiPropertyOptional({ example: '2026-12-01T00:00:00Z', description: 'Created at or after this instant' })
  @EmptyAsAbsent()
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true })
  createdFrom?: string;

  @ApiPropertyOptional({ example: '2027-01-01T00:00:00Z', description: 'Created before this instant' })
  @EmptyAsAbsent()
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true })
  createdTo?: string;
}
