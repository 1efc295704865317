import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ENVIRONMENTS, Environment } from '../context';
import { AmountDto } from '../payments/amount.dto';
import { ActionRequiredView } from '../payments/threeds.dto';
import { CheckoutSubscriptionView } from './checkout.dto';
import {
  AMOUNT_MODES,
  AmountMode,
  LINK_STATUSES,
  LINK_TYPES,
  LinkStatus,
  LinkType,
  PaymentLinkAmountView,
} from './payment-link.dto';

/**
 * The link as an anonymous payer sees it in the checkout's pay and resume answers: the fields the checkout
 * page shows, never the merchant's own (reference, metadata, counters, plan id).
 */
export class CheckoutLinkView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: LINK_STATUSES }) status: LinkStatus;
  @ApiProperty({ enum: LINK_TYPES }) type: LinkType;
  @ApiProperty({ enum: AMOUNT_MODES }) amountMode: AmountMode;
  @ApiProperty({ enum: ENVIRONMENTS }) environment: Environment;
  @ApiProperty() merchantCode: string;
  @ApiPropertyOptional({ type: PaymentLinkAmountView }) amount?: PaymentLinkAmountView;
  @ApiPropertyOptional() amountMin?: number;
  @ApiPropertyOptional() amountMax?: number;
  @ApiPropertyOptional() title?: string;
  @ApiPropertyOptional() description?: string;
  @ApiPropertyOptional() customerEmail?: string;
  @ApiPropertyOptional() customerName?: string;
  @ApiPropertyOptional() returnUrl?: string;
  @ApiPropertyOptional() expiresAt?: string;
}

/** The fields of CheckoutLinkView, in the order the answer lists them. */
export const CHECKOUT_LINK_FIELDS = [
  'id',
  'status',
  'type',
  'amountMode',
  'environment',
  'merchantCode',
  'amount',
  'amountMin',
  'amountMax',
  'title',
  'description',
  'customerEmail',
  'customerName',
  'returnUrl',
  'expiresAt',
] as const satisfies readonly (keyof CheckoutLinkView)[];

/** The payment as the payer sees it: what it paid and the receipt, never why a card was refused. */
export class PayerPaymentView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'Receipt id' }) paymentCode: string;
  @ApiProperty({ example: 'captured' }) status: string;
  @ApiProperty({ type: AmountDto }) amount: AmountDto;
  @ApiPropertyOptional({ type: ActionRequiredView, description: 'The 3DS challenge to run (requires_action)' })
  actionRequired?: ActionRequiredView;
}

/** The answer of the checkout's pay and resume routes to the anonymous payer. */
export class PayerResult {
  @ApiProperty({ enum: ['succeeded', 'declined', 'failed', 'requires_action'] })
  outcome: 'succeeded' | 'declined' | 'failed' | 'requires_action';
  @ApiProperty({ description: 'What happened, in words to show the payer' }) message: string;
  @ApiProperty({ type: CheckoutLinkView }) link: CheckoutLinkView;
  @ApiPropertyOptional({ type: PayerPaymentView }) payment?: PayerPaymentView;
  @ApiPropertyOptional({ type: CheckoutSubscriptionView }) subscription?: CheckoutSubscriptionView;
  @ApiPropertyOptional({ description: 'Where to send the payer after success' }) returnUrl?: string;
}
