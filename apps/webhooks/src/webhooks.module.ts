import { DynamicModule, Module, Provider } from '@nestjs/common';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { WebhookSecretCipher } from '@app/cipher';
import { Clock } from '@app/clock';
import { natsSettingsOf, refusesAutovacuumOff } from '@app/config';
import { backlogGaugesProvider, MigrationMode, serviceDatabase } from '@app/database';
import { idempotencyProviders, IdempotencyService, SealedIdempotency } from '@app/idempotency';
import { eventsStreamLimits } from '@app/messaging';
import { pingHandler, PlatformModule } from '@app/platform';
import { WebhooksConfig } from './config';
import { EventRetentionLoop } from './events/event-retention.loop';
import { EventsHandler } from './events/events.handler';
import { EventsRepository } from './events/events.repository';
import { WebhookEventRecord } from './events/webhook-event.entity';
import { WebhookEventsConsumer } from './webhooks/webhook-events.consumer';
import { migrations } from './migrations';
import { WEBHOOK_BACKLOG, WebhookDeliveriesRepository } from './webhooks/webhook-deliveries.repository';
import { WebhookAttempt, WebhookDelivery } from './webhooks/webhook-delivery.entity';
import { WebhookDeliveryLoop } from './webhooks/webhook-delivery.loop';
import { WebhookEndpoint } from './webhooks/webhook-endpoint.entity';
import { WebhookEndpointsHandler } from './webhooks/webhook-endpoints.handler';
import { WebhookEndpointsRepository } from './webhooks/webhook-endpoints.repository';
import { WebhookMerchantsRepository } from './webhooks/webhook-merchants.repository';
import { WebhookFanout } from './webhooks/webhook-fanout.service';
import { MerchantsHandler } from './webhooks/merchants.handler';
import { WebhookSecret } from './webhooks/webhook-secret.entity';
import { WebhookDeliveriesHandler } from './webhooks/webhook-deliveries.handler';
import { WebhookSecretHandler } from './webhooks/webhook-secret.handler';
import { WebhookQueries } from './webhooks/webhook-queries';
import { EndpointChecks } from './webhooks/endpoint-checks';
import { CreateEndpointUseCase } from './webhooks/create-endpoint.use-case';
import { UpdateEndpointUseCase } from './webhooks/update-endpoint.use-case';
import { RollEndpointSecretUseCase } from './webhooks/roll-endpoint-secret.use-case';
import { DeleteEndpointUseCase } from './webhooks/delete-endpoint.use-case';
import { ResendDeliveryUseCase } from './webhooks/resend-delivery.use-case';
import { TestEndpointUseCase } from './webhooks/test-endpoint.use-case';
import { RollSecretUseCase } from './webhooks/roll-secret.use-case';
import { RegisterMerchantUseCase } from './webhooks/register-merchant.use-case';
import { WebhookSender } from './webhooks/webhook-sender';
import { WEBHOOK_OPTIONS, WebhookOptions } from './webhooks/webhooks.options';

export interface WebhooksModuleOptions {
  clock?: Clock;
  overrides?: Provider[];
  /** Tests only: extra CA (PEM) trusted for webhook targets (see WebhookOptions.extraCa). */
  extraCa?: string;
}

/**
 * The webhooks service: merchants' webhook endpoints and signing secrets, the delivery log and its loop, the
 * event store behind GET /v1/events and the durable EVENTS consumer that fills both. The only app that calls
 * out to the internet.
 */
@Module({})
export class WebhooksModule {
  static forRoot(config: WebhooksConfig, logger: Logger, o: WebhooksModuleOptions = {}): DynamicModule {
    const options: WebhookOptions = {
      allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      retrySchedule: config.WEBHOOK_RETRY_SCHEDULE,
      maxEndpoints: config.WEBHOOK_MAX_ENDPOINTS,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      pollMs: config.WEBHOOK_DISPATCH_POLL_MS,
      consumerName: config.WEBHOOK_CONSUMER_NAME ?? 'gateway-webhooks',
      stream: eventsStreamLimits(config),
      extraCa: o.extraCa,
    };
    return {
      module: WebhooksModule,
      imports: [
        PlatformModule.forRoot({ app: 'webhooks', nats: natsSettingsOf(config), logger, clock: o.clock }),
        serviceDatabase(() => ({
          app: 'webhooks',
          url: config.WEBHOOKS_DATABASE_URL,
          migrate: config.MIGRATIONS as MigrationMode,
          entities: [WebhookEndpoint, WebhookSecret, WebhookDelivery, WebhookAttempt, WebhookEventRecord],
          migrations,
          autovacuumOff: { refuse: refusesAutovacuumOff(config), warn: (m) => logger.warn(m) },
        })),
      ],
      controllers: [
        pingHandler('webhooks'),
        WebhookEndpointsHandler,
        WebhookDeliveriesHandler,
        WebhookSecretHandler,
        EventsHandler,
        MerchantsHandler,
      ],
      providers: [
        { provide: WEBHOOK_OPTIONS, useValue: options },
        { provide: WebhookSecretCipher, useValue: WebhookSecretCipher.fromConfig(config) },
        // The webhook changes keep their Idempotency-Keys here, beside the data they change (the gateway forwards
        // the header in the caller), so a retry after the gateway's 504 finds the key of the request this service
        // did finish and replays it. A key is leased longer than the longest webhook change takes (a target's DNS
        // lookup included); a failed request deletes its key's row, so a corrected retry starts afresh. The use
        // cases run through SealedIdempotency: an answer that shows a signing secret is stored sealed with
        // WEBHOOK_SECRET_KEYS.
        ...idempotencyProviders({
          fingerprintKey: config.IDEMPOTENCY_FINGERPRINT_KEY,
          lease: { ms: 90_000, keepResourceId: false, callKeyPrefix: 'webhooks' },
        }),
        {
          provide: SealedIdempotency,
          inject: [IdempotencyService, DataSource, WebhookSecretCipher],
          useFactory: (keys: IdempotencyService, db: DataSource, cipher: WebhookSecretCipher) =>
            new SealedIdempotency(keys, db, cipher),
        },
        WebhookEndpointsRepository,
        WebhookMerchantsRepository,
        WebhookDeliveriesRepository,
        WebhookSender,
        WebhookDeliveryLoop,
        WebhookFanout,
        EndpointChecks,
        WebhookQueries,
        CreateEndpointUseCase,
        UpdateEndpointUseCase,
        RollEndpointSecretUseCase,
        DeleteEndpointUseCase,
        ResendDeliveryUseCase,
        TestEndpointUseCase,
        RollSecretUseCase,
        RegisterMerchantUseCase,
        WebhookEventsConsumer,
        EventsRepository,
        EventRetentionLoop,
        backlogGaugesProvider({
          statement: WEBHOOK_BACKLOG,
          count: { name: 'webhook_attempts_due', help: 'Webhook tries that are due and not yet sent' },
          age: {
            name: 'webhook_oldest_due_age_seconds',
            help: 'Seconds since the earliest unsent webhook try fell due (0 when none waits)',
          },
        }),
        ...(o.overrides ?? []),
      ],
    };
  }
}
