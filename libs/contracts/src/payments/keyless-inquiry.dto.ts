import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, Length } from 'class-validator';
import { ENVIRONMENTS, Environment } from '../context';
import { PAYMENT_STATUSES, PaymentStatus } from './payment-types';

/** A payment looked up without a key: by its paymentCode alone, in one environment. */
export class KeylessInquiryCommand {
  @IsIn(ENVIRONMENTS) environment: Environment;
  @IsString() @Length(1, 255) paymentCode: string;
}

/**
 * What GET /v1/payment/inquiry/{paymentCode} answers without a key (the provider's plugins resolve a
 * paymentCode to the id they refund with it): no amount, card, customer or merchant.
 */
export class KeylessInquiryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() paymentCode: string;
  @ApiProperty() orderCode: string;
  @ApiProperty({ enum: PAYMENT_STATUSES }) status: PaymentStatus;
}
