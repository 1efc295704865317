import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { PageQuery } from '../query.dto';
import { RollSecretRequest, UpdateWebhookEndpointRequest } from './webhooks.dto';

/** A webhook endpoint of the caller's merchant and environment, by id. */
export class WebhookEndpointIdCommand {
  @IsString() @MaxLength(255) id: string;
}

/** PATCH /v1/webhook-endpoint/{id}: the id and the REST body. */
export class UpdateWebhookEndpointCommand extends WebhookEndpointIdCommand {
  @IsObject()
  @ValidateNested()
  @Type(() => UpdateWebhookEndpointRequest)
  body: UpdateWebhookEndpointRequest;
}

/** POST /v1/webhook-endpoint/{id}/roll-secret: the id and the REST body. */
export class RollEndpointSecretCommand extends WebhookEndpointIdCommand {
  @IsObject()
  @ValidateNested()
  @Type(() => RollSecretRequest)
  body: RollSecretRequest;
}

/** GET /v1/webhook-endpoint/{id}/deliveries: the id and the page. */
export class WebhookDeliveriesCommand extends WebhookEndpointIdCommand {
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PageQuery)
  page?: PageQuery;
}

/** POST /v1/webhook-endpoint/{id}/deliveries/{deliveryId}/resend. */
export class ResendWebhookDeliveryCommand extends WebhookEndpointIdCommand {
  @IsString() @MaxLength(255) deliveryId: string;
}

/** GET /v1/events/{id}. */
export class EventIdCommand {
  @IsString() @MaxLength(255) id: string;
}
