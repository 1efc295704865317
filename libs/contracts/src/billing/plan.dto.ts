import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsISO31661Alpha2,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
} from 'class-validator';
import { PageQuery } from '../query.dto';
import { EmptyAsAbsent } from '../optional-text';
import { Refused } from './billing-validators';
import { TextLimits } from '../text-limits';
import { MerchantCodeField } from '../merchant-code';

export const PLAN_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type PlanInterval = (typeof PLAN_INTERVALS)[number];

const MAX_MONEY = Number.MAX_SAFE_INTEGER;
export const METER_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** POST /v1/subscription/plan (defaults: intervalCount 1, isActive true, exponent of the currency). */
@TextLimits()
export class CreatePlanRequest {
  @MerchantCodeField() merchantCode?: string;
  @ApiProperty({ example: 'Pro monthly' }) @IsString() @MinLength(1) name: string;
  @ApiPropertyOptional() @EmptyAsAbsent() @IsOptional() @IsString() @MinLength(1) description?: string;
  @ApiProperty({ enum: PLAN_INTERVALS }) @IsIn(PLAN_INTERVALS) interval: PlanInterval;

  @ApiPropertyOptional({ default: 1, minimum: 1, maximum: 365 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(365)
  intervalCount?: number;

  @ApiProperty({ example: 1999, description: 'Recurring charge in minor units' })
  @IsInt()
  @Min(1)
  @Max(MAX_MONEY)
  amount: number;

  @ApiProperty({ example: 'USD' })
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code (three capital letters)' })
  currency: string;

  @ApiPropertyOptional({ description: 'Defaults to the currency’s ISO 4217 exponent' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(18)
  exponent?: number;

  @ApiPropertyOptional({ default: 0 }) @IsOptional() @IsInt() @Min(0) @Max(730) trialPeriodDays?: number;
  @ApiPropertyOptional() @IsOptional() @IsInt() @Min(1) @Max(MAX_MONEY) introAmount?: number;
  @ApiPropertyOptional({ default: 0 }) @IsOptional() @IsInt() @Min(0) @Max(1000) introBillingCycles?: number;
  @ApiPropertyOptional({ default: 0 }) @IsOptional() @IsInt() @Min(0) @Max(10000) maxBillingCycles?: number;

  @ApiPropertyOptional({ type: [String], example: ['US', 'CA'], description: 'Empty = everywhere' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(250)
  @IsISO31661Alpha2({ each: true })
  availableCountries?: string[];

  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() isActive?: boolean;

  @ApiPropertyOptional({ type: [String], description: 'Codes of the merchant’s meters priced on this plan' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @Matches(METER_CODE_PATTERN, { each: true, message: 'meterCodes must be meter codes' })
  meterCodes?: string[];
}

const IMMUTABLE = (field: string) => `${field} cannot be changed: create a new plan and change-plan the subscribers`;

/** PATCH /v1/subscription/plan/{id}: omitted fields are unchanged; `availableCountries` replaces the list. */
@TextLimits()
export class UpdatePlanRequest {
  @MerchantCodeField() merchantCode?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MinLength(1) name?: string;
  @ApiPropertyOptional() @EmptyAsAbsent() @IsOptional() @IsString() @MinLength(1) description?: string;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() isActive?: boolean;

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(250)
  @IsISO31661Alpha2({ each: true })
  availableCountries?: string[];

  @Refused(IMMUTABLE('amount')) amount?: unknown;
  @Refused(IMMUTABLE('interval')) interval?: unknown;
  @Refused(IMMUTABLE('intervalCount')) intervalCount?: unknown;
  @Refused(IMMUTABLE('currency')) currency?: unknown;
}

/** Commands that name one plan (`cmd.billing.plan.get`, archive). */
export class PlanIdCommand {
  @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER) id: number;
}

export class UpdatePlanCommand extends UpdatePlanRequest {
  @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER) id: number;
}

/** GET /v1/subscription/plan. */
export class ListPlansQuery extends PageQuery {
  @ApiPropertyOptional({ example: 'US', description: 'Plans available there, plus the global ones' })
  @IsOptional()
  @IsISO31661Alpha2()
  country?: string;
}

export class PlanView {
  @ApiProperty() id: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The merchant’s numeric id' }) merchantId: number | null;
  @ApiProperty() name: string;
  @ApiPropertyOptional({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ enum: PLAN_INTERVALS }) interval: PlanInterval;
  @ApiProperty() intervalCount: number;
  @ApiProperty() amount: number;
  @ApiProperty() currency: string;
  @ApiProperty() exponent: number;
  @ApiProperty() trialPeriodDays: number;
  @ApiPropertyOptional({ type: Number, nullable: true }) introAmount: number | null;
  @ApiProperty() introBillingCycles: number;
  @ApiProperty() maxBillingCycles: number;
  @ApiProperty({ type: [String] }) availableCountries: string[];
  @ApiProperty() isActive: boolean;
  @ApiProperty({ type: [String] }) meterCodes: string[];
  @ApiPropertyOptional({ type: String, nullable: true, description: 'When the plan was archived (DELETE)' })
  archivedAt: string | null;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;
}

/** An item of GET /v1/subscription/plan. */
export class PlanListItem extends PlanView {
  @ApiProperty({ description: 'Subscriptions that are not cancelled or completed' }) subscriberCount: number;
}
