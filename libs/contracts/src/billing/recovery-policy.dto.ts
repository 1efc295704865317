import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { MerchantCodeField } from '../merchant-code';
import { TextLimits } from '../text-limits';

/** When an insufficient-funds decline (`51`) is retried: the schedule, the 1st of next month, or a set day. */
export const INSUFFICIENT_FUNDS_RETRIES = ['schedule', 'next_month', 'day_of_month'] as const;
export type InsufficientFundsRetry = (typeof INSUFFICIENT_FUNDS_RETRIES)[number];

/** When a `switch_method` decline is retried: on the schedule, or only once the payment method changes. */
export const SWITCH_METHOD_RETRIES = ['schedule', 'after_new_payment_method'] as const;
export type SwitchMethodRetry = (typeof SWITCH_METHOD_RETRIES)[number];

/** Most retries a recovery policy may schedule, and the longest time a run may last. */
export const RECOVERY_MAX_RETRIES = 8;
export const RECOVERY_MAX_DAYS = 60;

/** The rules of a recovery policy (docs/api.md's schedule is the default: +1, +3, +5, +7 days). */
export interface RecoveryRules {
  retryDays: number[];
  insufficientFunds: InsufficientFundsRetry;
  dayOfMonth: number | null;
  switchMethod: SwitchMethodRetry;
  maxRetries: number;
  withinDays: number;
}

export const DEFAULT_RECOVERY_RULES: Readonly<RecoveryRules> = Object.freeze({
  retryDays: [1, 3, 5, 7],
  insufficientFunds: 'schedule',
  dayOfMonth: null,
  switchMethod: 'schedule',
  maxRetries: 4,
  withinDays: 7,
});

/**
 * PUT /v1/subscription/recovery-policy: the merchant's recovery policy, replaced whole (an absent field takes
 * its default). Dunning runs that started before keep the version they started with.
 */
@TextLimits()
export class RecoveryPolicyRequest {
  @MerchantCodeField() merchantCode?: string;

  @ApiPropertyOptional({
    type: [Number],
    example: [1, 3, 5, 7],
    description: 'Days after the scheduled renewal at which retries fall due, increasing (default 1, 3, 5, 7)',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(RECOVERY_MAX_RETRIES)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(RECOVERY_MAX_DAYS, { each: true })
  retryDays?: number[];

  @ApiPropertyOptional({
    enum: INSUFFICIENT_FUNDS_RETRIES,
    description:
      'An insufficient-funds decline (`51`): retried on the schedule (default), at the start of the next calendar ' +
      'month (UTC), or on `dayOfMonth`',
  })
  @IsOptional()
  @IsIn(INSUFFICIENT_FUNDS_RETRIES)
  insufficientFunds?: InsufficientFundsRetry;

  @ApiPropertyOptional({ minimum: 1, maximum: 28, description: 'With `insufficientFunds: day_of_month` only' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(28)
  dayOfMonth?: number;

  @ApiPropertyOptional({
    enum: SWITCH_METHOD_RETRIES,
    description:
      'Any other decline whose recoveryAction is `switch_method` (expired card, CVV…): retried on the schedule ' +
      '(default), or not until the payment method changes',
  })
  @IsOptional()
  @IsIn(SWITCH_METHOD_RETRIES)
  switchMethod?: SwitchMethodRetry;

  @ApiPropertyOptional({ minimum: 1, maximum: RECOVERY_MAX_RETRIES, description: 'Most retries of a run (default 4)' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(RECOVERY_MAX_RETRIES)
  maxRetries?: number;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: RECOVERY_MAX_DAYS,
    description:
      'Days after the scheduled renewal within which retries may fall due (default 7); the next one after ' +
      'that, or after maxRetries, suspends the subscription instead',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(RECOVERY_MAX_DAYS)
  withinDays?: number;
}

export class RecoveryPolicyView implements RecoveryRules {
  @ApiProperty({ description: '0: the default policy, never set; each change adds one' }) version: number;
  @ApiProperty({ type: [Number], example: [1, 3, 5, 7] }) retryDays: number[];
  @ApiProperty({ enum: INSUFFICIENT_FUNDS_RETRIES }) insufficientFunds: InsufficientFundsRetry;
  @ApiProperty({ type: Number, nullable: true }) dayOfMonth: number | null;
  @ApiProperty({ enum: SWITCH_METHOD_RETRIES }) switchMethod: SwitchMethodRetry;
  @ApiProperty() maxRetries: number;
  @ApiProperty() withinDays: number;
  @ApiProperty({ type: String, nullable: true, description: 'When this version was set; null for the default' })
  createdAt: string | null;
}
