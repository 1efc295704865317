import { PageQuery } from '../query.dto';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, Length, MinLength, ValidateNested } from 'class-validator';
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

export class RefundRequest extends CaptureRequest {}

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
export class RefundCommand extends CaptureRequest {
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

/** GET /v1/payment: every attempt with an orderCode (or all payments), newest first. */
@TextLimits()
export class ListPaymentsQuery extends PageQuery {
  @ApiPropertyOptional({ example: 'order-1001' }) @IsOptional() @IsString() @MinLength(1) orderCode?: string;
}
