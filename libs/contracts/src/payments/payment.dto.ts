import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AmountDto } from './amount.dto';
import { ActionRequiredView, ApmView } from './threeds.dto';
import {
  CARD_TYPES,
  CardType,
  OPERATION_STATUSES,
  OperationStatus,
  PAYMENT_STATUSES,
  PaymentStatus,
  RECOVERY_ACTIONS,
  RecoveryAction,
} from './payment-types';

/** Why a payment was declined: a normalized ISO 8583 code, the issuer's own and what to do next. */
export class RefusalCodeDto {
  @ApiProperty({ example: '51', description: 'Normalized ISO 8583 code without a leading zero' }) reasonCode: string;
  @ApiProperty({ example: 'Insufficient funds' }) reason: string;
  @ApiProperty({ example: '51', description: 'The code as the acquirer sent it' }) originalReasonCode: string;
  @ApiProperty({ example: 'INSUFFICIENT_FUNDS' }) originalReason: string;
  @ApiProperty({ enum: RECOVERY_ACTIONS }) recoveryAction: RecoveryAction;
}

/** The card's account is closed (an issuer's decline, or the account updater's answer before a renewal). */
export const CLOSED_ACCOUNT_REFUSAL = {
  reasonCode: '46',
  reason: 'Closed account',
  originalReasonCode: '46',
  originalReason: 'CLOSED_ACCOUNT',
  recoveryAction: 'switch_method',
} as const satisfies RefusalCodeDto;

export class CardDataView {
  @ApiProperty({ example: 'visa' }) brand: string;
  @ApiProperty({ example: '411111****1111', description: 'First 6, four asterisks, last 4' }) cardNumber: string;
  @ApiProperty({ enum: CARD_TYPES }) type: CardType;
  @ApiProperty({ example: '12' }) expiryMonth: string;
  @ApiProperty({ example: '2030' }) expiryYear: string;
}

export class CardView {
  @ApiProperty({ type: CardDataView }) cardData: CardDataView;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Cite it on later merchant-initiated charges',
  })
  networkTransactionId: string | null;

  @ApiPropertyOptional({ type: String, nullable: true }) networkReferenceId: string | null;
}

export class TokenView {
  @ApiProperty({ example: 'vt_…' }) token: string;
  @ApiProperty() expirationDate: string;
}

/** One connection a payment was sent to, when a `retry` decline moved it on to the next one (cascade). */
export class RoutingAttemptView {
  @ApiProperty({ example: 'primary' }) connectionCode: string;
  @ApiProperty({ enum: ['approved', 'declined', 'failed', 'challenge_required', 'pending_action'] }) outcome: string;
  @ApiPropertyOptional({ description: 'Normalized refusal code of a decline', example: '5' }) reasonCode?: string;
}

/** The card's 3D Secure authentication, as the acquirer answered it. */
export class ThreeDSecureView {
  @ApiProperty({
    enum: ['frictionless', 'challenge', 'attempted'],
    description:
      '`frictionless`: the issuer authenticated the cardholder without a challenge; `challenge`: after one; ' +
      '`attempted`: authentication was attempted but the issuer did not take part',
  })
  flow: 'frictionless' | 'challenge' | 'attempted';
  @ApiPropertyOptional({ description: 'Electronic Commerce Indicator the issuer returned', example: '05' })
  eci?: string;
  @ApiPropertyOptional({ description: '3DS protocol version', example: '2.2.0' }) version?: string;
}

/** Who made a refund: an API key (its id) or a dashboard user (their id). */
export class RefundActorView {
  @ApiProperty({ enum: ['api_key', 'dashboard_user'] }) type: 'api_key' | 'dashboard_user';
  @ApiProperty({ description: 'The API key id, or the dashboard user id' }) id: string;
}

/** One refund of a payment, as recorded. */
export class RefundView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: AmountDto }) amount: AmountDto;
  @ApiProperty({ type: String, nullable: true, description: 'Why, as the refund request said' }) reason: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The refund request’s own reference' })
  reference: string | null;
  @ApiProperty({ type: RefundActorView, nullable: true, description: 'Null for refunds recorded before this was kept' })
  refundedBy: RefundActorView | null;
  @ApiProperty() createdAt: string;
}

/** The Payment: response of purchase, authorization, resume and the inquiries; `data` of payment events. */
export class PaymentResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: PAYMENT_STATUSES }) status: PaymentStatus;
  @ApiProperty({ description: 'Receipt id; not a handle for operations' }) paymentCode: string;
  @ApiProperty() orderCode: string;
  @ApiProperty() merchantCode: string;

  @ApiPropertyOptional({ description: 'Issuer authorization code of an approved payment (spelled without h)' })
  autorizationCode?: string;

  @ApiProperty({ example: 'card' }) paymentMethod: string;
  @ApiProperty({ description: 'The connection that answered' }) connectionCode: string;
  @ApiProperty() connectionName: string;
  @ApiPropertyOptional({
    type: [RoutingAttemptView],
    description:
      'Only when the payment went to more than one connection: each one, in order (a `retry` decline on one ' +
      'moves the payment to the next; the last one answered)',
  })
  cascade?: RoutingAttemptView[];
  @ApiProperty({ type: AmountDto }) amount: AmountDto;
  @ApiProperty({ type: AmountDto }) amountCaptured: AmountDto;
  @ApiProperty({ type: AmountDto }) amountRefunded: AmountDto;
  @ApiPropertyOptional({ type: CardView }) card?: CardView;
  @ApiPropertyOptional({ type: ApmView }) apm?: ApmView;
  @ApiPropertyOptional({ type: TokenView }) token?: TokenView;
  @ApiPropertyOptional({ type: ActionRequiredView }) actionRequired?: ActionRequiredView;
  @ApiPropertyOptional({ type: RefusalCodeDto }) refusalCode?: RefusalCodeDto;
  @ApiPropertyOptional({
    type: ThreeDSecureView,
    description: 'Present when the card went through 3D Secure: how the cardholder was authenticated',
  })
  threeDSecure?: ThreeDSecureView;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) metadata: Record<string, string>;
  @ApiProperty() createdAt: string;
  @ApiPropertyOptional({
    type: [RefundView],
    description:
      'On reads (GET by id, inquiry, list), oldest first; absent from events. A captured payment with refunds ' +
      'adding up to less than `amountCaptured` is partially refunded; its `status` stays `captured`.',
  })
  refunds?: RefundView[];
}

/** Response of capture, refund, cancel and cancel_or_refund (an operation result). */
export class OperationResult {
  @ApiProperty({ format: 'uuid', description: 'The payment id' }) id: string;
  @ApiProperty() merchantCode: string;
  @ApiProperty() orderCode: string;
  @ApiProperty() paymentCode: string;
  @ApiProperty({ type: AmountDto, description: 'The amount this operation moved' }) amount: AmountDto;
  @ApiProperty({ enum: OPERATION_STATUSES }) status: OperationStatus;
}
