import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsIn, IsString, MinLength } from 'class-validator';
import { ALL_EVENT_TYPES, MerchantQuery, WEBHOOK_ANY_EVENT } from '@app/contracts';
import { TextLimits } from '@app/contracts';

const SUBSCRIBABLE = [...ALL_EVENT_TYPES, WEBHOOK_ANY_EVENT];

@TextLimits()
export class CreateWebhookEndpointRequest extends MerchantQuery {
  @ApiProperty({
    example: 'https://shop.example.com/webhooks/payments',
    description: 'HTTPS only; private, loopback and link-local addresses are refused',
  })
  @IsString()
  @MinLength(1)
  url: string;

  @ApiProperty({
    example: ['payment.captured', 'payment.refunded'],
    description: 'Event types to receive, or ["*"] for every type',
    enum: SUBSCRIBABLE,
    isArray: true,
  })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(SUBSCRIBABLE.length)
  @IsIn(SUBSCRIBABLE, { each: true, message: `events must hold known event types or "${WEBHOOK_ANY_EVENT}"` })
  events: string[];
}

export class WebhookEndpointResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'https://shop.example.com/webhooks/payments' }) url: string;
  @ApiProperty({ example: ['payment.captured'], isArray: true, enum: SUBSCRIBABLE }) events: string[];
  @ApiProperty({ enum: ['production', 'sandbox'] }) environment: string;
  @ApiProperty({ example: '2025-11-21T10:00:00.000Z' }) createdAt: string;
}

export class CreatedWebhookEndpointResponse extends WebhookEndpointResponse {
  @ApiProperty({
    example: 'whsec_9eT0c…',
    description: 'Signing secret of this endpoint: shown only in this answer',
  })
  secret: string;
}

export class DeletedWebhookEndpointResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: true }) deleted: boolean;
}

export class WebhookDeliveryResponse {
  @ApiProperty({ format: 'uuid', description: 'Id of this attempt' }) id: string;
  @ApiProperty({ format: 'uuid', description: 'The event id; equals the Webhook-Id header' }) eventId: string;
  @ApiProperty({ example: 'payment.captured' }) eventType: string;
  @ApiProperty({ example: 1, description: '1 for the first try, then 2, 3, …' }) attempt: number;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed', 'dead'] }) status: string;
  @ApiProperty({ type: Number, nullable: true, example: 200 }) responseStatus: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 84 }) durationMs: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'When the receiver was called' })
  attemptedAt: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'When this pending try is due, or when the try after this failed one is',
  })
  nextAttemptAt: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'HTTP 500', description: 'Why the try failed' })
  error: string | null;
}

export class WebhookSecretResponse {
  @ApiProperty({ example: 'whsec_9eT0c…', description: 'Signs deliveries to a payment’s webhookUrl' })
  secret: string;
  @ApiProperty({ example: '2025-11-21T10:00:00.000Z' }) createdAt: string;
}
