import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { AuditInterceptor } from './audit/audited';
import { AuditLogController } from './audit/audit-log.controller';
import { PassportModule } from '@nestjs/passport';
import { Logger } from 'pino';
import { WebhookSecretCipher } from '@app/cipher';
import { Clock } from '@app/clock';
import { idempotencyProviders, IdempotencyService } from '@app/idempotency';
import { DataSource } from 'typeorm';
import { natsSettingsOf, refusesAutovacuumOff } from '@app/config';
import { MigrationMode, serviceDatabase } from '@app/database';
import { Metrics } from '@app/observability';
import { eventsStreamLimits, RPC_TIMEOUT_MS, RpcClient } from '@app/messaging';
import { OutboxModule, OutboxRow } from '@app/outbox';
import { PlatformModule } from '@app/platform';
import { billingControllers } from './billing/billing.wiring';
import { PrivateKeyGuard, RATE_LIMITER } from './auth/api-key.guard';
import { ApiKey } from './auth/api-key.entity';
import { ApiKeysService, KEY_CACHE_TTL_MS } from './auth/api-keys.service';
import { AuthFailures } from './auth/auth-failures';
import { BearerStrategy } from './auth/bearer.strategy';
import { Merchant } from './auth/merchant.entity';
import { MerchantsService } from './auth/merchants.service';
import { MerchantsRepository } from './auth/merchants.repository';
import { ApiKeysRepository } from './auth/api-keys.repository';
import { RateLimiter } from './auth/rate-limiter';
import { GatewayConfig } from './config';
import { dashboardControllers, dashboardProviders } from './dashboard/dashboard.wiring';
import { DEMO_OPTIONS, DemoSeeder } from './demo/demo-seeder';
import { GatewayIdempotency } from './http/gateway-idempotency';
import { HttpExceptionFilter } from './http/http-exception.filter';
import { GatewayValidationPipe } from './http/validation.pipe';
import { gatewayMigrations } from './migrations';
import { PingController } from './ping/ping.controller';
import { ExportsController } from './exports/exports.controller';
import { paymentControllers, paymentProviders } from './payments/payments.wiring';
import { sandboxClockControllers, sandboxClockProviders } from './sandbox/sandbox-clock.wiring';
import { sdkControllers, sdkProviders } from './sdk/sdk.wiring';
import { UsageController } from './billing/usage.controller';
import { webhookControllers } from './webhooks/webhooks.wiring';
import { ConnectorWebhooksController } from './connectors/connector-webhooks.controller';
import { ThreeDsReturnController } from './hosted/threeds-return.controller';
import { CardUpdateLinks } from './card-update/card-update-links.repository';
import { CardUpdateLinksController } from './card-update/card-update-links.controller';
import { CardUpdatePageController } from './card-update/card-update-page.controller';
import { CardUpdateSettingsController } from './card-update/card-update-settings.controller';
import { CardUpdateMail } from './card-update/card-update-mail';
import { CARD_UPDATE_CONSUMER, CardUpdateEventsConsumer } from './card-update/card-update-events.consumer';

export interface GatewayModuleOptions {
  config: GatewayConfig;
  logger: Logger;
  clock?: Clock;
  print?: (text: string) => void;
}

/** Merchants and keys: what the HTTP gateway (both its servers) and the CLI need. */
@Module({})
export class AccountsModule {
  static forRoot({ config, logger, clock }: GatewayModuleOptions): DynamicModule {
    return {
      module: AccountsModule,
      imports: [
        PlatformModule.forRoot({
          app: 'gateway',
          nats: natsSettingsOf(config),
          logger,
          clock,
          // A dependency's outage answers clients 503 SERVICE_UNAVAILABLE; the gateway stays in the Service.
          dependenciesGateReadiness: false,
          // The internal server answers /metrics (internal/internal.module.ts): the public one has no such route.
          serveMetrics: false,
        }),
        serviceDatabase(() => ({
          app: 'gateway',
          url: config.GATEWAY_DATABASE_URL,
          migrate: config.MIGRATIONS as MigrationMode,
          entities: [OutboxRow, Merchant, ApiKey],
          migrations: gatewayMigrations(WebhookSecretCipher.fromConfig(config)),
          autovacuumOff: { refuse: refusesAutovacuumOff(config), warn: (m) => logger.warn(m) },
        })),
      ],
      providers: [
        MerchantsRepository,
        MerchantsService,
        ApiKeysRepository,
        ApiKeysService,
        { provide: KEY_CACHE_TTL_MS, useValue: config.KEY_CACHE_TTL_MS },
        // A new merchant is named to the webhooks service (MerchantsService.create).
        { provide: RPC_TIMEOUT_MS, useValue: config.RPC_TIMEOUT_MS },
        RpcClient,
      ],
      exports: [MerchantsService, MerchantsRepository, ApiKeysService, ApiKeysRepository],
    };
  }
}

@Module({})
export class GatewayModule {
  static forRoot(o: GatewayModuleOptions): DynamicModule {
    const { config } = o;
    return {
      module: GatewayModule,
      imports: [
        AccountsModule.forRoot(o),
        PassportModule,
        OutboxModule.forRoot({ pollMs: config.OUTBOX_POLL_MS, stream: eventsStreamLimits(config) }),
      ],
      controllers: [
        PingController,
        ...paymentControllers,
        ExportsController,
        ...billingControllers,
        ...webhookControllers,
        ...sdkControllers,
        ...sandboxClockControllers,
        UsageController,
        ...dashboardControllers,
        ConnectorWebhooksController,
        ThreeDsReturnController,
        AuditLogController,
        CardUpdateLinksController,
        CardUpdatePageController,
        CardUpdateSettingsController,
      ],
      providers: [
        { provide: APP_FILTER, useClass: HttpExceptionFilter },
        { provide: APP_PIPE, useClass: GatewayValidationPipe },
        { provide: APP_INTERCEPTOR, useClass: AuditInterceptor },
        { provide: RPC_TIMEOUT_MS, useValue: config.RPC_TIMEOUT_MS },
        { provide: RATE_LIMITER, useValue: new RateLimiter(config.RATE_LIMIT_PER_SECOND) },
        {
          provide: AuthFailures,
          inject: [Metrics],
          useFactory: (metrics: Metrics) => new AuthFailures(config.AUTH_FAILURES_PER_MINUTE, metrics),
        },
        {
          provide: DEMO_OPTIONS,
          useValue: {
            enabled: config.DEMO_MERCHANT && config.NODE_ENV !== 'production',
            publicBaseUrl: config.PUBLIC_BASE_URL,
            print: o.print ?? ((t: string) => process.stdout.write(`${t}\n`)),
          },
        },
        PrivateKeyGuard,
        BearerStrategy,
        ...paymentProviders(config),
        // A key of the gateway's own changes is leased longer than the longest call one waits for (a sandbox
        // clock advance, 60 s); a failed request deletes its key's row, so a corrected retry starts afresh.
        ...idempotencyProviders({
          fingerprintKey: config.IDEMPOTENCY_FINGERPRINT_KEY,
          lease: { ms: 90_000, keepResourceId: false, callKeyPrefix: 'gateway' },
        }),
        {
          provide: GatewayIdempotency,
          inject: [IdempotencyService, DataSource],
          useFactory: (keys: IdempotencyService, db: DataSource) =>
            new GatewayIdempotency(keys, db, WebhookSecretCipher.fromConfig(config)),
        },
        ...sandboxClockProviders(config),
        DemoSeeder,
        CardUpdateLinks,
        CardUpdateMail,
        { provide: CARD_UPDATE_CONSUMER, useValue: config.CARD_UPDATE_CONSUMER_NAME },
        CardUpdateEventsConsumer,
        ...sdkProviders(config),
        ...dashboardProviders(config),
      ],
    };
  }
}
