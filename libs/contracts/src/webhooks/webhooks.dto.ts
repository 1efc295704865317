import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  Min,
  MinLength,
} from 'class-validator';
import { ALL_EVENT_TYPES, WEBHOOK_ANY_EVENT } from '../events';
import { DELIVERY_ERRORS, DeliveryError } from './delivery-errors';
import { EmptyAsAbsent } from '../optional-text';
import { MerchantQuery } from '../query.dto';
import { TextLimits } from '../text-limits';

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

  @ApiPropertyOptional({ example: 'Order sync', description: 'Free text for the merchant’s own use' })
  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  description?: string;
}

@TextLimits()
export class UpdateWebhookEndpointRequest extends MerchantQuery {
  @ApiPropertyOptional({ example: 'https://shop.example.com/webhooks/payments', description: 'As on creation' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  url?: string;

  @ApiPropertyOptional({ example: ['payment.captured'], enum: SUBSCRIBABLE, isArray: true })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(SUBSCRIBABLE.length)
  @IsIn(SUBSCRIBABLE, { each: true, message: `events must hold known event types or "${WEBHOOK_ANY_EVENT}"` })
  events?: string[];

  @ApiPropertyOptional({ example: 'Order sync', description: '"" clears it' })
  @IsOptional()
  @IsString()
  description?: string;

  @ApiPropertyOptional({
    description: 'true: no deliveries (tries still waiting are given up when due); false: enabled',
  })
  @IsOptional()
  @IsBoolean()
  disabled?: boolean;
}

/** How long the secret a roll replaces keeps signing beside the new one. */
export class RollSecretRequest extends MerchantQuery {
  @ApiPropertyOptional({
    minimum: 0,
    maximum: 86400,
    default: 86400,
    description: 'Seconds the replaced secret stays valid (0: it stops at once)',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(86400)
  expiresInSeconds?: number;
}

export class WebhookEndpointResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'https://shop.example.com/webhooks/payments' }) url: string;
  @ApiProperty({ example: ['payment.captured'], isArray: true, enum: SUBSCRIBABLE }) events: string[];
  @ApiProperty({ enum: ['production', 'sandbox'] }) environment: string;
  @ApiProperty({ type: String, nullable: true, example: 'Order sync' }) description: string | null;
  @ApiProperty({ example: false, description: 'A disabled endpoint gets no deliveries' }) disabled: boolean;
  @ApiProperty({ example: '2025-11-21T10:00:00.000Z' }) createdAt: string;
}

export class CreatedWebhookEndpointResponse extends WebhookEndpointResponse {
  @ApiProperty({
    example: 'whsec_9eT0c…',
    description: 'Signing secret of this endpoint: shown only in this answer',
  })
  secret: string;
}

export class RolledWebhookEndpointResponse extends CreatedWebhookEndpointResponse {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Until when the replaced secret still signs deliveries beside the new one',
  })
  previousSecretExpiresAt: string | null;
}

export class DeletedWebhookEndpointResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: true }) deleted: boolean;
}

/** The object an event is about: its kind and id (a payment_method's id is its vault token). */
export class WebhookObjectView {
  @ApiProperty({ example: 'payment', description: 'payment, payment_link, payment_method, subscription or invoice' })
  type: string;
  @ApiProperty({ example: '0190a1b2-…' }) id: string;
}

export class WebhookDeliveryResponse {
  @ApiProperty({ format: 'uuid', description: 'Id of this attempt' }) id: string;
  @ApiProperty({ format: 'uuid', description: 'The event id; equals the Webhook-Id header' }) eventId: string;
  @ApiProperty({ example: 'payment.captured' }) eventType: string;
  @ApiProperty({
    type: WebhookObjectView,
    nullable: true,
    description: 'What the event is about; null for a test ping',
  })
  object: WebhookObjectView | null;
  @ApiProperty({ format: 'uuid', description: 'The delivery (one event to one endpoint) this attempt is a try of' })
  deliveryId: string;
  @ApiProperty({
    enum: ['pending', 'succeeded', 'dead'],
    description: 'The delivery as a whole: pending while tries remain, succeeded once one did, dead once all failed',
  })
  deliveryStatus: string;
  @ApiProperty({
    description:
      'Whether POST …/deliveries/{id}/resend would act on this attempt now: its delivery has not succeeded, this ' +
      'is its newest try and the endpoint is enabled (else the resend answers 409)',
  })
  resendable: boolean;
  @ApiProperty({ example: 1, description: '1 for the first try, then 2, 3, …' }) attempt: number;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed', 'dead'] }) status: string;
  @ApiProperty({ type: Number, nullable: true, example: 200 }) responseStatus: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '{"received":true}',
    description: "The start of the receiver's answer body: its first 1,024 bytes as UTF-8 text; null without an answer",
  })
  responseExcerpt: string | null;
  @ApiProperty({ type: Number, nullable: true, example: 84 }) durationMs: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'When the receiver was called' })
  attemptedAt: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'When this pending try is due, or when the try after this failed one is',
  })
  nextAttemptAt: string | null;
  @ApiProperty({
    type: String,
    // null is listed too: OpenAPI 3.0 checks a nullable enum's null against the list.
    enum: [...DELIVERY_ERRORS, null] as unknown as string[],
    nullable: true,
    example: 'http_status',
    description:
      'Why the try failed, as a class: `http_status` (the answer is in `responseStatus`), `refused`, `reset`, ' +
      '`timeout`, `unreachable`, `tls`, `dns`, `network`, `invalid_url`, `private_target`, `endpoint_deleted`, ' +
      '`endpoint_disabled`, `no_secret`; null when it succeeded or is pending',
  })
  error: DeliveryError | null;
}

export class WebhookSecretResponse {
  @ApiProperty({ example: 'whsec_9eT0c…', description: 'Signs deliveries to a payment’s webhookUrl' })
  secret: string;
  @ApiProperty({ example: '2025-11-21T10:00:00.000Z' }) createdAt: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Until when the secret replaced by the last roll still signs deliveries beside this one',
  })
  previousSecretExpiresAt: string | null;
}
