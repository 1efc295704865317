import { DynamicModule, Module, Provider } from '@nestjs/common';
import { Logger } from 'pino';
import { Clock, SandboxClockCopy } from '@app/clock';
import { natsSettingsOf, refusesAutovacuumOff } from '@app/config';
import { MigrationMode, serviceDatabase } from '@app/database';
import { idempotencyProviders } from '@app/idempotency';
import { eventsStreamLimits } from '@app/messaging';
import { OutboxModule, OutboxRow } from '@app/outbox';
import { ExpirySweepLoop, pingHandler, PlatformModule } from '@app/platform';
import { PAYMENTS_CONFIG, PaymentsConfig } from './config';
import { AcquirerCalls } from './connector/acquirer-call';
import { ConnectorConnections } from './routing/connector-connections';
import { NotificationSettlement } from './connector-webhooks/notification-settlement';
import { ProviderWebhookEvents } from './connector-webhooks/provider-webhook-events.repository';
import { ProviderWebhooksHandler } from './connector-webhooks/provider-webhooks.handler';
import { ProviderWebhooks } from './connector-webhooks/provider-webhooks.service';
import { ConnectorRegistry, CONNECTORS } from './connector/connector.registry';
import { ProviderConnector } from './connector/provider-connector';
import { SandboxAcquirerConnector } from './connector/sandbox-acquirer.connector';
import { DatabaseLedger } from './connector/sandbox-ledger';
import { SandboxLedgerRepository } from './connector/sandbox-ledger.repository';
import { HoldExpiryService } from './hold-expiry/hold-expiry.service';
import { InquiryHandler } from './inquiry/inquiry.handler';
import { InquiryService } from './inquiry/inquiry.service';
import { PaymentStatsHandler, PaymentStatsService } from './stats/payment-stats';
import { PaymentStatsRepository } from './stats/payment-stats.repository';
import { ExportRepository } from './inquiry/export.repository';
import { ExportService } from './inquiry/export.service';
import { migrations } from './migrations';
import { PaymentOperationsHandler } from './operations/payment-operations.handler';
import { PaymentOperationsService } from './operations/payment-operations.service';
import { OperationRecord } from './operations/operation-record';
import { PaymentEntity, PaymentOperationEntity } from './payment/payment.entity';
import { PaymentRecorder } from './payment/payment-recorder';
import { PaymentRepository } from './payment/payment.repository';
import { APM_PORT } from './purchase/apm.port';
import { CARD_VAULT_PORT } from './vault/card-vault.port';
import { InstrumentResolver } from './purchase/instrument.resolver';
import { PurchaseHandler } from './purchase/purchase.handler';
import { AcquirerCascade } from './purchase/acquirer-cascade';
import { PurchaseReservation } from './purchase/purchase-reservation';
import { PurchaseUseCase } from './purchase/purchase.use-case';
import { AuthorizationRecord } from './purchase/authorization-record';
import { AcquirerAttemptRepository } from './reservation/acquirer-attempt.repository';
import { CrashPoints } from './reservation/crash-points';
import { AttemptRecorder } from './recovery/attempt-recorder';
import { ReservationRelease } from './reservation/reservation-release';
import { RecoveryService } from './recovery/recovery.service';
import { RecoveryLoop } from './recovery/recovery.loop';
import { ConnectorMetrics } from './connector/connector-metrics';
import { ProviderAgents, useProviderAgents } from './connector/provider-agent';
import { providerAgentsOf, providerConnectors } from './connector/provider-connectors';
import { ConnectionCredentialsCipher } from './routing/connection-credentials';
import { ConnectionEntity } from './routing/connection.entity';
import { ConnectionHealth } from './connector/connection-health';
import { ConnectionRekeyLoop } from './routing/connection-rekey.loop';
import { ConnectionRepository } from './routing/connection.repository';
import { ConnectionsHandler } from './routing/connections.handler';
import { ConnectionQueries } from './routing/connection-queries.service';
import { UpsertConnectionUseCase } from './routing/upsert-connection.use-case';
import { RoutingService } from './routing/routing.service';
import { ClockAdvanceHandler } from './sandbox-clock/clock-advance.handler';
import { ClockAdvanceUseCase } from './sandbox-clock/clock-advance.use-case';
import { THREE_DS_PORT } from './threeds/threeds.port';
import { ApmService } from './apm/apm.service';
import { extrasEntities, extrasHandlers, extrasProviders } from './extras.wiring';
import { ThreeDsService } from './threeds/threeds.service';
import { CardCheckService } from './vault/card-check.service';
import { TokenHandler } from './vault/token.handler';
import { VaultService } from './vault/vault.service';

export interface PaymentsModuleOptions {
  clock?: Clock;
  /** Acquirer adapters served next to the built-in sandbox one (see ConnectorRegistry). */
  connectors?: readonly ProviderConnector[];
  /** Providers that replace the module's own of the same token (a test's fault injection). */
  overrides?: Provider[];
}

@Module({})
export class PaymentsModule {
  static forRoot(config: PaymentsConfig, logger: Logger, o: PaymentsModuleOptions = {}): DynamicModule {
    return {
      module: PaymentsModule,
      imports: [
        PlatformModule.forRoot({ app: 'payments', nats: natsSettingsOf(config), logger, clock: o.clock }),
        serviceDatabase(() => ({
          app: 'payments',
          url: config.PAYMENTS_DATABASE_URL,
          migrate: config.MIGRATIONS as MigrationMode,
          entities: [OutboxRow, PaymentEntity, PaymentOperationEntity, ConnectionEntity, ...extrasEntities],
          migrations,
          pipeline: true,
          autovacuumOff: { refuse: refusesAutovacuumOff(config), warn: (m) => logger.warn(m) },
        })),
        OutboxModule.forRoot({ pollMs: config.OUTBOX_POLL_MS, stream: eventsStreamLimits(config) }),
      ],
      controllers: [
        pingHandler('payments'),
        PurchaseHandler,
        PaymentOperationsHandler,
        InquiryHandler,
        PaymentStatsHandler,
        ConnectionsHandler,
        ClockAdvanceHandler,
        TokenHandler,
        ProviderWebhooksHandler,
        ...extrasHandlers,
      ],
      providers: [
        { provide: PAYMENTS_CONFIG, useValue: config },
        // The 3DS, APM and vault modules behind the purchase flow's ports.
        { provide: THREE_DS_PORT, useExisting: ThreeDsService },
        { provide: APM_PORT, useExisting: ApmService },
        { provide: CARD_VAULT_PORT, useExisting: VaultService },
        CardCheckService,
        SandboxLedgerRepository,
        DatabaseLedger,
        {
          provide: SandboxAcquirerConnector,
          useFactory: (ledger: DatabaseLedger) =>
            new SandboxAcquirerConnector(ledger, config.SANDBOX_ACQUIRER_LATENCY_MS),
          inject: [DatabaseLedger],
        },
        {
          // The simulator, Adyen and Stripe always; a test's connectors replace those of the same acquirer.
          provide: CONNECTORS,
          useFactory: (sandbox: SandboxAcquirerConnector, agents: ProviderAgents, clock: Clock) => [
            sandbox,
            ...providerConnectors(config, agents, clock),
            ...(o.connectors ?? []),
          ],
          inject: [SandboxAcquirerConnector, ProviderAgents, Clock],
        },
        ConnectorRegistry,
        {
          // The connectors' HTTP agents (HTTPS_PROXY, NO_PROXY, CONNECTOR_EXTRA_CA_FILE): injectable, and behind
          // providerAgent(url).
          provide: ProviderAgents,
          useFactory: () => {
            const agents = providerAgentsOf(config);
            useProviderAgents(agents);
            return agents;
          },
        },
        ConnectionCredentialsCipher,
        ConnectorConnections,
        ConnectionHealth,
        ConnectorMetrics,
        ProviderWebhookEvents,
        NotificationSettlement,
        ProviderWebhooks,
        AcquirerCalls,
        PaymentRepository,
        PaymentRecorder,
        // Every payment money operation must be safe to retry: production requests carry a key.
        ...idempotencyProviders({ fingerprintKey: config.IDEMPOTENCY_FINGERPRINT_KEY, requireKeyInProduction: true }),
        ConnectionRepository,
        RoutingService,
        ConnectionQueries,
        UpsertConnectionUseCase,
        ConnectionRekeyLoop,
        InstrumentResolver,
        AcquirerAttemptRepository,
        CrashPoints,
        ReservationRelease,
        AttemptRecorder,
        RecoveryService,
        RecoveryLoop,
        AuthorizationRecord,
        PurchaseReservation,
        AcquirerCascade,
        PurchaseUseCase,
        OperationRecord,
        PaymentOperationsService,
        InquiryService,
        PaymentStatsRepository,
        PaymentStatsService,
        ExportRepository,
        ExportService,
        HoldExpiryService,
        ExpirySweepLoop.register({
          name: 'hold_expiry',
          everyMs: config.HOLD_EXPIRY_SWEEP_MS,
          work: HoldExpiryService,
          swept: 'expired authorization holds cancelled',
        }),
        SandboxClockCopy,
        ClockAdvanceUseCase,
        ...extrasProviders(config),
        ...(o.overrides ?? []),
      ],
    };
  }
}
