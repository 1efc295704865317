import { PageQuery } from '../query.dto';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, Length, ValidateNested } from 'class-validator';
import { AmountDto } from './amount.dto';
import { EmptyAsAbsent } from '../optional-text';

/** capture and refund: `merchantCode` is required there (SPEC). */
export class CaptureRequest {
  @ApiProperty({ example: 'acme' }) @IsString() @Length(1, 64) merchantCode: string;
  @ApiProperty({ type: AmountDto }) @IsObject() @ValidateNested() @Type(() => AmountDto) amount: AmountDto;
  @ApiPropertyOptional({ description: 'Your internal reference' })
  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  @Length(1, 255)
  reference?: string;
}

export class RefundRequest extends CaptureRequest {}

export class CancelRequest {
  @ApiProperty({ example: 'acme' }) @IsString() @Length(1, 64) merchantCode: string;

  @ApiPropertyOptional({ type: AmountDto, description: 'Optional; when sent it must be the whole authorized amount' })
  @IsOptional()
  @ValidateNested()
  @Type(() => AmountDto)
  amount?: AmountDto;

  @ApiPropertyOptional() @EmptyAsAbsent() @IsOptional() @IsString() @Length(1, 255) reference?: string;
}

export class CancelOrRefundRequest {
  @ApiPropertyOptional({ description: 'Needed when the key belongs to several merchants' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  merchantCode?: string;

  @ApiPropertyOptional() @EmptyAsAbsent() @IsOptional() @IsString() @Length(1, 255) reference?: string;
}

/** The command messages of the operations carry the payment id from the path next to the body. */
export class CaptureCommand extends CaptureRequest {
  @IsString() id: string;
}
export class RefundCommand extends CaptureRequest {
  @IsString() id: string;
}
export class CancelCommand extends CancelRequest {
  @IsString() id: string;
}
export class CancelOrRefundCommand extends CancelOrRefundRequest {
  @IsString() id: string;
}

/** GET /v1/payment/{id} and /v1/payment/inquiry/{reference}. */
export class PaymentLookupCommand {
  @IsString() @Length(1, 255) reference: string;
}

/** GET /v1/payment: every attempt with an orderCode (or all payments), newest first. */
export class ListPaymentsQuery extends PageQuery {
  @ApiPropertyOptional({ example: 'order-1001' }) @IsOptional() @IsString() @Length(1, 255) orderCode?: string;
}
