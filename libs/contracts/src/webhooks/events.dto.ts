import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional } from 'class-validator';
import { EVENT_DATA_CLASSES } from '../event-data';
import { ALL_EVENT_TYPES } from '../events';
import { PageQuery } from '../query.dto';

export class EventsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: ALL_EVENT_TYPES, description: 'Only events of this type' })
  @IsOptional()
  @IsIn(ALL_EVENT_TYPES, { message: 'type must be a known event type' })
  type?: string;

  @ApiPropertyOptional({ example: '2025-11-21T00:00:00.000Z', description: 'Only events created at or after this' })
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true })
  createdFrom?: string;

  @ApiPropertyOptional({ example: '2025-11-22T00:00:00.000Z', description: 'Only events created before this' })
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true })
  createdTo?: string;
}

/** An event as its webhook deliveries carry it. */
@ApiExtraModels(...EVENT_DATA_CLASSES)
export class EventResponse {
  @ApiProperty({ format: 'uuid', description: 'The event id; equals the Webhook-Id header' }) id: string;
  @ApiProperty({ example: 'payment.captured' }) type: string;
  @ApiProperty({ example: '2025-11-21T10:00:00.000Z' }) createdAt: string;
  @ApiProperty({ enum: ['production', 'sandbox'] }) environment: string;
  @ApiProperty({ example: 'acme' }) merchantCode: string;
  @ApiProperty({
    anyOf: EVENT_DATA_CLASSES.map((c) => ({ $ref: getSchemaPath(c) })),
    description: 'The object after the change: a Payment, a PaymentLink, a Subscription or an Invoice, by `type`',
  })
  data: object;
  @ApiProperty({ example: 'payment.captured', description: 'The provider’s name of `type`' }) event: string;
  @ApiProperty({ example: '2025-11-21T10:00:00.000Z', description: 'The provider’s name of `createdAt`' })
  created_at: string;
}
