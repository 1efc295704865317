import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
} from 'class-validator';
import { IDEMPOTENCY_KEY_FORMAT, IDEMPOTENCY_KEY_PATTERN } from './payments/idempotency';
import { TextLimits } from './text-limits';
import { MerchantCodeField } from './merchant-code';

/** Most events one batch may carry. */
export const USAGE_BATCH_MAX = 1000;

/** The fields of one usage event, in a single request and in a batch. */
@TextLimits()
class UsageEventFields {
  @ApiProperty({ format: 'uuid', description: 'The subscription the usage belongs to' })
  @IsString()
  @MinLength(1)
  subscriptionId: string;

  @ApiProperty({ example: 'api_requests', description: 'Code of one of the merchant’s meters' })
  @IsString()
  @MinLength(1)
  meterCode: string;

  @ApiProperty({ example: 1, minimum: 0, description: 'A non-negative integer' })
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  quantity: number;

  @ApiPropertyOptional({
    example: '2026-03-01T12:00:00.000Z',
    description:
      'RFC 3339 with a zone; decides the billing period. Default: receipt time. Not before the subscription ' +
      'start, nor more than 5 minutes ahead of the merchant’s clock.',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  occurredAt?: string;
}

/** POST /v1/subscription/usage (the Idempotency-Key header makes it safe to retry, per meter). */
@TextLimits()
export class UsageRequest extends UsageEventFields {
  @MerchantCodeField() merchantCode?: string;
}

/** One event of a batch: the single request's fields plus its own idempotency key. */
export class UsageBatchEvent extends UsageEventFields {
  @ApiPropertyOptional({ description: 'Plays the role of the Idempotency-Key header of a single request' })
  @IsOptional()
  @IsString()
  @Matches(IDEMPOTENCY_KEY_PATTERN, { message: `idempotencyKey must be ${IDEMPOTENCY_KEY_FORMAT}` })
  idempotencyKey?: string;
}

/**
 * POST /v1/subscription/usage/batch. Each event is validated on its own by the billing service, so one
 * malformed event is an error in its own result, not a refusal of the batch.
 */
@TextLimits()
export class UsageBatchRequest {
  @MerchantCodeField() merchantCode?: string;

  @ApiProperty({ type: [UsageBatchEvent], minItems: 1, maxItems: USAGE_BATCH_MAX })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(USAGE_BATCH_MAX)
  events: unknown[];
}

/** A usage event as the API answers it. */
export class UsageEventView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) subscriptionId: string;
  @ApiProperty() meterCode: string;
  @ApiProperty() quantity: number;
  @ApiProperty({ description: 'The instant the usage is attributed to (RFC 3339 UTC)' }) occurredAt: string;
  @ApiProperty({ description: 'True when the answer replays an earlier event with the same meter and key' })
  duplicate: boolean;
}

/** The error a single request would have answered, without the request id (the batch has one). */
export class UsageEventError {
  @ApiProperty() status: number;
  @ApiProperty() code: string;
  @ApiProperty() message: string;
  @ApiPropertyOptional() param?: string;
}

export class UsageBatchResult {
  @ApiProperty({ description: 'Position of the event in the request' }) index: number;
  @ApiProperty({ description: 'The status a single request would have answered: 201, 200 (replay) or an error' })
  status: number;

  @ApiPropertyOptional({ type: UsageEventView }) event?: UsageEventView;
  @ApiPropertyOptional({ type: UsageEventError }) error?: UsageEventError;
}

export class UsageBatchResponse {
  @ApiProperty({ type: [UsageBatchResult] }) results: UsageBatchResult[];
}
