import { Inject, Injectable } from '@nestjs/common';
import { Clock, uuidv7 } from '@app/clock';
import { CallerContext, WEBHOOK_PING_EVENT, WebhookEnvelope, WebhookPingData, PageQuery } from '@app/contracts';
import { DomainError } from '@app/errors';
import { traceParentOf } from '@app/observability';
import { canonicalUrl, resolveTarget, TargetRefused } from './target-guard';
import { newSigningSecret } from '@app/webhook-signature';
import { AttemptRow, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveryLoop } from './webhook-delivery.loop';
import { EndpointRow, Scope, WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { webhookBody } from './webhook-fanout.service';
import {
  CreatedWebhookEndpointResponse,
  CreateWebhookEndpointRequest,
  DeletedWebhookEndpointResponse,
  RolledWebhookEndpointResponse,
  RollSecretRequest,
  UpdateWebhookEndpointRequest,
  WebhookDeliveryResponse,
  WebhookObjectView,
  WebhookEndpointResponse,
  WebhookSecretResponse,
} from '@app/contracts';
import { WEBHOOK_OPTIONS, WebhookOptions } from './webhooks.options';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The page size of the webhook lists when `limit` is left out. */
export const DEFAULT_LIMIT = 20;

const scopeOf = (c: CallerContext): Scope => ({ merchantCode: c.merchantCode, environment: c.environment });
const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

const duplicateUrl = () =>
  new DomainError(
    'DUPLICATE_WEBHOOK_URL',
    'Another webhook endpoint of this merchant and environment has this url',
    'url',
  );

/** How long a rolled secret keeps signing when the roll does not say. */
export const DEFAULT_SECRET_GRACE_SECONDS = 24 * 3600;

export const toEndpointView = (e: EndpointRow): WebhookEndpointResponse => ({
  id: e.id,
  url: e.url,
  events: e.events,
  environment: e.environment,
  description: e.description ?? null,
  disabled: e.disabled ?? false,
  createdAt: iso(e.createdAt)!,
});

/** The aggregates whose events name an object (EventAggregate); a ping names none. */
const OBJECT_TYPES = new Set(['payment', 'payment_link', 'payment_method', 'subscription', 'invoice']);

function objectOf(a: AttemptRow): WebhookObjectView | null {
  const type = a.eventType.split('.')[0];
  return OBJECT_TYPES.has(type) && a.objectId ? { type, id: a.objectId } : null;
}

/** `endpointEnabled`: a disabled endpoint's deliveries cannot be resent (409 until it is enabled). */
export const toDeliveryView = (a: AttemptRow, endpointEnabled = true): WebhookDeliveryResponse => ({
  id: a.id,
  eventId: a.eventId,
  eventType: a.eventType,
  object: objectOf(a),
  deliveryId: a.deliveryId,
  deliveryStatus: a.deliveryStatus,
  resendable: endpointEnabled && a.deliveryStatus !== 'succeeded' && a.latest,
  attempt: a.attempt,
  status: a.status,
  responseStatus: a.responseStatus,
  responseExcerpt: a.responseExcerpt,
  durationMs: a.durationMs,
  attemptedAt: iso(a.attemptedAt),
  nextAttemptAt: iso(a.nextAttemptAt),
  error: a.error,
});

/** Merchant webhook endpoints, their delivery log and the account signing secret (docs/webhooks.md). */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly deliveryLoop: WebhookDeliveryLoop,
    private readonly clock: Clock,
    @Inject(WEBHOOK_OPTIONS) private readonly options: WebhookOptions,
  ) {}

  async create(caller: CallerContext, body: CreateWebhookEndpointRequest): Promise<CreatedWebhookEndpointResponse> {
    const endpoint: EndpointRow = {
      id: uuidv7(),
      merchantCode: caller.merchantCode,
      environment: caller.environment,
      url: await this.checkTarget(body.url),
      events: [...new Set(body.events)],
      description: body.description ?? null,
      disabled: false,
      createdAt: this.clock.now(caller),
      deletedAt: null,
    };
    const secret = newSigningSecret();
    const max = this.options.maxEndpoints;
    const refused = await this.endpoints.insert(endpoint, secret, max);
    if (refused === 'limit') {
      throw new DomainError(
        'WEBHOOK_ENDPOINT_LIMIT',
        `At most ${max} webhook endpoints per merchant and environment; delete one first`,
      );
    }
    if (refused) throw duplicateUrl();
    return { ...toEndpointView(endpoint), secret };
  }

  async list(caller: CallerContext, query: PageQuery): Promise<WebhookEndpointResponse[]> {
    if (query.startingAfter) await this.require(caller, query.startingAfter, 'startingAfter', true);
    const rows = await this.endpoints.list(scopeOf(caller), query.limit ?? DEFAULT_LIMIT, query.startingAfter);
    return rows.map(toEndpointView);
  }

  async get(caller: CallerContext, id: string): Promise<WebhookEndpointResponse> {
    return toEndpointView(await this.require(caller, id));
  }

  async update(
    caller: CallerContext,
    id: string,
    body: UpdateWebhookEndpointRequest,
  ): Promise<WebhookEndpointResponse> {
    await this.require(caller, id);
    const url = body.url === undefined ? undefined : await this.checkTarget(body.url);
    const updated = await this.endpoints.update(scopeOf(caller), id, {
      url,
      events: body.events && [...new Set(body.events)],
      description: body.description === undefined ? undefined : body.description || null,
      disabled: body.disabled,
    });
    if (updated === 'duplicate-url') throw duplicateUrl();
    if (!updated) throw DomainError.notFound('webhook endpoint', 'id');
    return toEndpointView(updated);
  }

  /** A new signing secret for the endpoint, shown only in this answer; the old one signs on for the grace. */
  async rollEndpointSecret(
    caller: CallerContext,
    id: string,
    body: RollSecretRequest,
  ): Promise<RolledWebhookEndpointResponse> {
    await this.require(caller, id);
    const secret = newSigningSecret();
    const grace = body.expiresInSeconds ?? DEFAULT_SECRET_GRACE_SECONDS;
    const rolled = await this.endpoints.rollEndpointSecret(scopeOf(caller), id, secret, grace);
    if (!rolled) throw DomainError.notFound('webhook endpoint', 'id');
    return { ...toEndpointView(rolled), secret, previousSecretExpiresAt: iso(rolled.previousSecretExpiresAt) };
  }

  /** Sends a dead or failed delivery of the endpoint again (same body, same Webhook-Id); answers the try. */
  async resend(caller: CallerContext, id: string, deliveryId: string): Promise<WebhookDeliveryResponse> {
    const endpoint = await this.require(caller, id);
    if (endpoint.disabled) throw DomainError.invalidState('The webhook endpoint is disabled; enable it first');
    const attempt = UUID.test(deliveryId) ? await this.deliveries.resend(endpoint.id, deliveryId) : undefined;
    if (!attempt) throw DomainError.notFound('delivery', 'deliveryId');
    if (attempt === 'succeeded') throw DomainError.invalidState('The delivery already succeeded');
    this.deliveryLoop.kick();
    return toDeliveryView(attempt);
  }

  async remove(caller: CallerContext, id: string): Promise<DeletedWebhookEndpointResponse> {
    if (!UUID.test(id)) throw DomainError.notFound('webhook endpoint', 'id');
    const deleted = await this.endpoints.softDelete(scopeOf(caller), id, this.clock.now(caller));
    if (!deleted) throw DomainError.notFound('webhook endpoint', 'id');
    return { id: deleted.id, deleted: true };
  }

  async deliveriesOf(caller: CallerContext, id: string, query: PageQuery): Promise<WebhookDeliveryResponse[]> {
    const endpoint = await this.require(caller, id);
    const cursor = query.startingAfter;
    if (cursor && !(UUID.test(cursor) && (await this.deliveries.attemptOfEndpoint(endpoint.id, cursor)))) {
      throw DomainError.notFound('delivery', 'startingAfter');
    }
    const rows = await this.deliveries.listForEndpoint(endpoint.id, query.limit ?? DEFAULT_LIMIT, cursor);
    return rows.map((row) => toDeliveryView(row, !endpoint.disabled));
  }

  /** Queues a signed `ping` to the endpoint through the normal delivery path; answers its first try. */
  async test(caller: CallerContext, id: string): Promise<WebhookDeliveryResponse> {
    const endpoint = await this.require(caller, id);
    const ping: WebhookEnvelope<WebhookPingData> = {
      id: uuidv7(),
      type: WEBHOOK_PING_EVENT,
      createdAt: this.clock.now(caller).toISOString(),
      environment: caller.environment,
      merchantCode: caller.merchantCode,
      data: { endpointId: endpoint.id, message: 'Test event from the webhook settings' },
    };
    // Its tries link to this request's trace.
    const [attempt] = await this.deliveries.insertDeliveries(
      ping,
      webhookBody(ping),
      [{ target: `endpoint:${endpoint.id}`, endpointId: endpoint.id, url: endpoint.url }],
      traceParentOf(),
    );
    this.deliveryLoop.kick();
    return toDeliveryView(attempt);
  }

  async secret(caller: CallerContext): Promise<WebhookSecretResponse> {
    const s = await this.endpoints.secret(scopeOf(caller), newSigningSecret(), this.clock.now(caller));
    return { secret: s.secret, createdAt: iso(s.createdAt)!, previousSecretExpiresAt: iso(s.previousSecretExpiresAt) };
  }

  async rollSecret(caller: CallerContext, body: RollSecretRequest): Promise<WebhookSecretResponse> {
    const grace = body.expiresInSeconds ?? DEFAULT_SECRET_GRACE_SECONDS;
    const s = await this.endpoints.rollSecret(scopeOf(caller), newSigningSecret(), this.clock.now(caller), grace);
    return { secret: s.secret, createdAt: iso(s.createdAt)!, previousSecretExpiresAt: iso(s.previousSecretExpiresAt) };
  }

  /** The URL in the form a request to it is sent (lower-case host, no default port), once it is allowed. */
  private async checkTarget(url: string): Promise<string> {
    try {
      await resolveTarget(url, { allowPrivate: this.options.allowPrivateTargets, requireResolution: false });
      return canonicalUrl(url);
    } catch (e) {
      if (e instanceof TargetRefused) throw DomainError.validation(e.message, 'url');
      throw e;
    }
  }

  private async require(caller: CallerContext, id: string, param = 'id', includeDeleted = false): Promise<EndpointRow> {
    const found = UUID.test(id) ? await this.endpoints.find(scopeOf(caller), id, { includeDeleted }) : undefined;
    if (!found) throw DomainError.notFound('webhook endpoint', param);
    return found;
  }
}
