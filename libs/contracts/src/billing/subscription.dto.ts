import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
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
  Length,
  Max,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ENVIRONMENTS, Environment } from '../context';
import { RefusalCodeDto } from '../payments/payment.dto';
import { CardRequestDto } from '../payments/purchase.dto';
import { IsMetadata } from '../payments/validators';
import { PageQuery } from '../query.dto';
import { EmptyAsAbsent } from '../optional-text';
import { Refused } from './billing-validators';
import { InvoiceView } from './invoice.dto';
import { PlanView } from './plan.dto';
import { TextLimits } from '../text-limits';
import { MerchantCodeField } from '../merchant-code';

export const SUBSCRIPTION_STATUSES = [
  'pending',
  'trialing',
  'active',
  'past_due',
  'suspended',
  'paused',
  'cancelled',
  'completed',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Exactly one of cardData, nonceData (CIT mode) or tokenData (record mode); no cardOnFile, no instalments. */
export class SubscriptionCardDto extends PickType(CardRequestDto, [
  'cardData',
  'nonceData',
  'tokenData',
  'networkTransactionId',
  'networkReferenceId',
] as const) {
  @Refused('cardOnFile is not accepted: the subscription sets the stored-credential mode') cardOnFile?: unknown;
  @Refused('instalments are not accepted on a subscription') instalments?: unknown;
}

/** POST /v1/subscription; also the body of `cmd.billing.subscription.create` (payment links send it). */
@TextLimits()
export class CreateSubscriptionRequest {
  @MerchantCodeField() merchantCode?: string;
  @ApiProperty() @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER) planId: number;
  @ApiProperty() @IsEmail() @MinLength(1) customerEmail: string;
  @ApiPropertyOptional() @EmptyAsAbsent() @IsOptional() @IsString() @MinLength(1) customerName?: string;
  @ApiPropertyOptional() @EmptyAsAbsent() @IsOptional() @IsString() @MinLength(1) customerDocument?: string;

  @ApiProperty({ type: SubscriptionCardDto })
  @IsObject()
  @ValidateNested()
  @Type(() => SubscriptionCardDto)
  card: SubscriptionCardDto;

  @ApiPropertyOptional({ format: 'uuid', description: 'Record mode: the customer’s own CIT on the same token' })
  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  @MinLength(1)
  firstPaymentId?: string;

  @ApiPropertyOptional({ description: 'RFC 3339, in the future: defers the first charge (status pending)' })
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true })
  startAt?: string;

  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsString() @MinLength(1) parentSubscriptionId?: string;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() propagateLifecycle?: boolean;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @IsOptional()
  @IsObject()
  @IsMetadata()
  metadata?: Record<string, string>;
}

/** Operations whose body is only `merchantCode` (pause, resume, cancel, retry-payment). */
@TextLimits()
export class MerchantBody {
  @MerchantCodeField() merchantCode?: string;
}

/** POST /v1/admin/merchants/{merchantCode}/subscriptions/{id}/retry-parked-renewal. */
export class RetryParkedRenewalRequest {
  @ApiProperty({ enum: ENVIRONMENTS }) @IsIn(ENVIRONMENTS) environment: Environment;
}

export class SubscriptionIdCommand {
  @IsString() @Length(1, 64) id: string;
}

export const APPLY_AT = ['now', 'next_billing'] as const;

/** POST /v1/subscription/{id}/change-plan. */
@TextLimits()
export class ChangePlanRequest {
  @MerchantCodeField() merchantCode?: string;
  @ApiProperty() @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER) planId: number;
  @ApiPropertyOptional({ enum: APPLY_AT, default: 'next_billing' }) @IsOptional() @IsIn(APPLY_AT) applyAt?: string;
}

export class ChangePlanCommand extends ChangePlanRequest {
  @IsString() @Length(1, 64) id: string;
}

/** POST /v1/subscription/{id}/payment-method: a new CIT with card or nonce data. */
@TextLimits()
export class PaymentMethodRequest {
  @MerchantCodeField() merchantCode?: string;

  @ApiProperty({ type: SubscriptionCardDto })
  @IsObject()
  @ValidateNested()
  @Type(() => SubscriptionCardDto)
  card: SubscriptionCardDto;
}

export class PaymentMethodCommand extends PaymentMethodRequest {
  @IsString() @Length(1, 64) id: string;
}

/** GET /v1/subscription. */
@TextLimits()
export class ListSubscriptionsQuery extends PageQuery {
  @ApiPropertyOptional()
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  planId?: number;
  @ApiPropertyOptional({ enum: SUBSCRIPTION_STATUSES }) @IsOptional() @IsIn(SUBSCRIPTION_STATUSES) status?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MinLength(1) customerEmail?: string;
}

export class ScheduledPlanChangeView {
  @ApiProperty() planId: number;
  @ApiProperty() effectiveAt: string;
}

/** A renewal that failed for a reason a retry cannot change: the scheduler leaves the subscription alone. */
export class RenewalParkedView {
  @ApiProperty({ description: 'When the renewal was parked' }) at: string;
  @ApiProperty({ description: 'Why, readable', example: 'Usage sum 9007199254740992 exceeds Number.MAX_SAFE_INTEGER' })
  reason: string;
}

export const DUNNING_WAITS = ['scheduled_retry', 'payment_method'] as const;
export type DunningWait = (typeof DUNNING_WAITS)[number];

/** Why a past_due subscription is where it is and what happens next (docs/api.md, Recovery policy). */
export class DunningStateView {
  @ApiProperty({ description: 'The recovery policy version the run started with; a later change does not move it' })
  policyVersion: number;
  @ApiProperty({ description: 'The scheduled renewal the run counts its retries from' }) scheduledAt: string;
  @ApiPropertyOptional({ type: RefusalCodeDto, nullable: true, description: 'The last decline (null: failed)' })
  lastRefusal: RefusalCodeDto | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'The connection that answered the last charge' })
  lastConnectionCode: string | null;
  @ApiProperty({
    enum: DUNNING_WAITS,
    description: '`scheduled_retry`: charged again at nextAttemptAt; `payment_method`: not until the card changes',
  })
  waitingFor: DunningWait;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'When the next retry is due' })
  nextAttemptAt: string | null;
}

export class SubscriptionView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The merchant’s numeric id' }) merchantId: number | null;
  @ApiProperty() planId: number;
  @ApiProperty() customerEmail: string;
  @ApiPropertyOptional({ type: String, nullable: true }) customerName: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) customerDocument: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) cardBrand: string | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'The network transaction id every merchant-initiated charge of the subscription (renewals, retries, ' +
      'upgrades) cites: the enrolment’s (its payment’s `card.networkTransactionId`), or the new card’s after a ' +
      'payment-method change',
  })
  networkTransactionId: string | null;
  @ApiProperty({ enum: SUBSCRIPTION_STATUSES }) status: SubscriptionStatus;
  @ApiPropertyOptional({ type: String, nullable: true }) currentPeriodStart: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) currentPeriodEnd: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) nextBillingDate: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) trialStart: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) trialEnd: string | null;
  @ApiProperty() dunningAttemptCount: number;
  @ApiPropertyOptional({ type: String, nullable: true }) activatedAt: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) cancelledAt: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) pausedAt: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) suspendedAt: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) completedAt: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) startAt: string | null;
  @ApiProperty() cyclesCompleted: number;
  @ApiPropertyOptional({ type: String, nullable: true }) parentSubscriptionId: string | null;
  @ApiProperty() propagateLifecycle: boolean;
  @ApiPropertyOptional({ type: Number, nullable: true }) pendingPlanId: number | null;
  @ApiPropertyOptional({ type: ScheduledPlanChangeView, nullable: true })
  scheduledPlanChange: ScheduledPlanChangeView | null;
  @ApiPropertyOptional({
    type: RenewalParkedView,
    nullable: true,
    description: 'Set when a renewal failed for a reason retrying cannot change; renewals stop until it is lifted',
  })
  renewalParked: RenewalParkedView | null;
  @ApiPropertyOptional({ type: DunningStateView, nullable: true, description: 'Set while past_due' })
  dunning: DunningStateView | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) metadata: Record<string, string>;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;
  @ApiPropertyOptional({ type: PlanView, description: 'On single-subscription answers' }) plan?: PlanView;
}

export const FIRST_CYCLE_RESULTS = ['charged', 'linked', 'deferred'] as const;

/** Record mode: what happened to cycle 1. */
export class FirstCycleView {
  @ApiProperty({
    enum: FIRST_CYCLE_RESULTS,
    description: 'charged: an MIT; linked: firstPaymentId paid it; deferred: trial or later start, nothing charged',
  })
  result: (typeof FIRST_CYCLE_RESULTS)[number];

  @ApiPropertyOptional({ type: String, nullable: true }) paymentId: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) invoiceId: string | null;
}

/** 201 of POST /v1/subscription. */
export class CreatedSubscriptionView extends SubscriptionView {
  @ApiPropertyOptional({ type: InvoiceView, nullable: true, description: 'Null when nothing is charged' })
  firstInvoice: InvoiceView | null;

  @ApiPropertyOptional({ type: FirstCycleView, description: 'Record mode only' }) firstCycle?: FirstCycleView;
}

export class ListInvoicesQuery extends PageQuery {}

export class ListInvoicesCommand extends ListInvoicesQuery {
  @IsString() @Length(1, 64) id: string;
}
