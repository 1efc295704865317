import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { Logger } from 'pino';
import { Clock } from '@app/clock';
import { natsSettingsOf, refusesAutovacuumOff } from '@app/config';
import { MigrationMode, serviceDatabase } from '@app/database';
import { eventsStreamLimits } from '@app/messaging';
import { OutboxModule, OutboxRow } from '@app/outbox';
import { PlatformModule } from '@app/platform';
import { AuditModule } from './audit/audit.module';
import { AccountsModule } from './auth/accounts.module';
import { ApiKey } from './auth/api-key.entity';
import { AuthModule } from './auth/auth.module';
import { Merchant } from './auth/merchant.entity';
import { BillingModule } from './billing/billing.module';
import { CardUpdateModule } from './card-update/card-update.module';
import { CheckoutModule } from './checkout/checkout.module';
import { GatewayConfig, GatewayConfigModule } from './config';
import { ConnectorsModule } from './connectors/connectors.module';
import { DashboardSessionsModule } from './dashboard/dashboard-sessions.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { SessionPrincipals } from './dashboard/session-principal';
import { DemoModule } from './demo/demo.module';
import { ExportsModule } from './exports/exports.module';
import { HostedModule } from './hosted/hosted.module';
import { HttpExceptionFilter } from './http/http-exception.filter';
import { GatewayValidationPipe } from './http/validation.pipe';
import { GatewayIdempotencyModule } from './idempotency/idempotency.module';
import { gatewayMigrations } from './migrations';
import { PaymentLinksModule } from './payment-links/payment-links.module';
import { PaymentsModule } from './payments/payments.module';
import { PingModule } from './ping/ping.module';
import { SandboxModule } from './sandbox/sandbox.module';
import { ClientTokens } from './sdk/client-tokens.service';
import { ClientTokensModule } from './sdk/client-tokens.module';
import { SdkModule } from './sdk/sdk.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { gatewaySecretCipher } from './secret-keys';

export interface GatewayModuleOptions {
  config: GatewayConfig;
  logger: Logger;
  clock?: Clock;
  print?: (text: string) => void;
}

/**
 * What every gateway process runs on: its configuration, logger, NATS and metrics (PlatformModule), its
 * database with its migrations, and the merchants and keys (AccountsModule). The HTTP gateway and the CLI.
 */
export function gatewayFoundation({ config, logger, clock }: GatewayModuleOptions): DynamicModule['imports'] {
  return [
    GatewayConfigModule.of(config),
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
      migrations: gatewayMigrations(gatewaySecretCipher(config)),
      autovacuumOff: { refuse: refusesAutovacuumOff(config), warn: (m) => logger.warn(m) },
    })),
    AccountsModule,
  ];
}

/** The gateway CLI's application: merchants and keys over the gateway's database (cli.ts). */
@Module({})
export class GatewayCliModule {
  static forRoot(o: GatewayModuleOptions): DynamicModule {
    return { module: GatewayCliModule, imports: gatewayFoundation(o), exports: [AccountsModule] };
  }
}

/**
 * The gateway's public application: one module per domain (docs/architecture.md). Authentication's ports are
 * bound here: the dashboard's session is the other credential, an SDK client token is recognized on a server
 * route. The internal server (internal/internal.module.ts) is an application of its own.
 */
@Module({})
export class GatewayModule {
  static forRoot(o: GatewayModuleOptions): DynamicModule {
    const { config } = o;
    return {
      module: GatewayModule,
      imports: [
        ...(gatewayFoundation(o) ?? []),
        OutboxModule.forRoot({ pollMs: config.OUTBOX_POLL_MS, stream: eventsStreamLimits(config) }),
        GatewayIdempotencyModule.forRoot(config),
        AuthModule.forRoot({
          imports: [DashboardSessionsModule, ClientTokensModule],
          credentials: SessionPrincipals,
          clientTokens: ClientTokens,
        }),
        PingModule,
        PaymentsModule,
        ExportsModule,
        BillingModule,
        WebhooksModule,
        SdkModule,
        HostedModule,
        SandboxModule,
        PaymentLinksModule,
        CheckoutModule,
        DashboardModule,
        ConnectorsModule,
        AuditModule,
        CardUpdateModule,
        DemoModule.forRoot({
          enabled: config.DEMO_MERCHANT && config.NODE_ENV !== 'production',
          publicBaseUrl: config.PUBLIC_BASE_URL,
          print: o.print ?? ((t: string) => process.stdout.write(`${t}\n`)),
        }),
      ],
      providers: [
        { provide: APP_FILTER, useClass: HttpExceptionFilter },
        { provide: APP_PIPE, useClass: GatewayValidationPipe },
      ],
    };
  }
}
