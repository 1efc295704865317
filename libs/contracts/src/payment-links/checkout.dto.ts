import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsEmail,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import type { Environment } from '../context';
import { AmountDto } from '../payments/amount.dto';
import { PaymentResponse } from '../payments/payment.dto';
import { AmountMode, LinkStatus, LinkType, PaymentLinkResponse } from './payment-link.dto';
import { TextLimits } from '../text-limits';

/**
 * The metadata key that names a payment's link on every payment a link's checkout makes. Payments resumes the
 * 3DS session of such a payment only for payment-links (the checkout's resume), never on the keyless route.
 */
export const LINK_PAYMENT_METADATA = 'paymentLinkId';

/** POST /v1/checkout/{id}/pay: the hosted checkout (or any page with the link's client token) pays the link. */
@TextLimits()
export class PayLinkRequest {
  @ApiProperty({ description: 'A nonce from POST /v1/sdk/nonce, made with this link’s client token' })
  @IsString()
  @MinLength(1)
  nonce: string;

  @ApiPropertyOptional({ type: AmountDto, description: 'Required on customer_entered links' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AmountDto)
  amount?: AmountDto;

  @ApiPropertyOptional({ description: 'Required on subscription links unless the link names one' })
  @IsOptional()
  @ValidateIf((o: PayLinkRequest) => o.customerEmail !== '')
  @IsEmail()
  customerEmail?: string;

  @ApiPropertyOptional() @IsOptional() @IsString() customerName?: string;
}

export class PayLinkCommand extends PayLinkRequest {
  @IsString() @MaxLength(255) linkId: string;
}

@TextLimits()
export class ResumeLinkRequest {
  @ApiProperty({ description: 'actionRequired.sessionId of the payment this link started' })
  @IsString()
  @MinLength(1)
  sessionId: string;
}

export class ResumeLinkCommand extends ResumeLinkRequest {
  @IsString() @MaxLength(255) linkId: string;
}

export class CheckoutSubscriptionView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() status: string;
}

/** The answer of pay and resume: the link after the attempt and what the attempt made. */
export class CheckoutResult {
  @ApiProperty({ enum: ['succeeded', 'declined', 'failed', 'requires_action'] })
  outcome: 'succeeded' | 'declined' | 'failed' | 'requires_action';
  @ApiProperty({ type: PaymentLinkResponse }) link: PaymentLinkResponse;
  @ApiPropertyOptional({ type: PaymentResponse }) payment?: PaymentResponse;
  @ApiPropertyOptional({ type: CheckoutSubscriptionView }) subscription?: CheckoutSubscriptionView;
  @ApiPropertyOptional({ description: 'Where to send the payer after success' }) returnUrl?: string;
}

/** The plan a subscription link enrolls the payer in, as the checkout shows it. */
export interface CheckoutPlanView {
  name: string;
  amount: { currency: string; value: number; exponent: number };
  interval: string;
  intervalCount: number;
  trialPeriodDays?: number;
}

/** What the hosted checkout page shows about a link (no merchant secret, nothing of other links). */
export interface CheckoutView {
  id: string;
  status: LinkStatus;
  type: LinkType;
  amountMode: AmountMode;
  environment: Environment;
  merchantCode: string;
  amount?: { currency: string; value?: number; exponent: number };
  amountMin?: number;
  amountMax?: number;
  title?: string;
  description?: string;
  customerEmail?: string;
  customerName?: string;
  returnUrl?: string;
  plan?: CheckoutPlanView;
  expiresAt?: string;
}

export class CheckoutViewCommand {
  @IsString() @MaxLength(255) id: string;
}
