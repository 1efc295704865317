import { DynamicModule, Module, Provider } from '@nestjs/common';
import { Logger } from 'pino';
import { Clock } from '@app/clock';
import { natsSettingsOf, refusesAutovacuumOff } from '@app/config';
import { MigrationMode, serviceDatabase } from '@app/database';
import { idempotencyProviders } from '@app/idempotency';
import { eventsStreamLimits, RPC_TIMEOUT_MS, RpcClient } from '@app/messaging';
import { OutboxModule, OutboxRow } from '@app/outbox';
import { pingHandler, PlatformModule } from '@app/platform';
import { BILLING_CONFIG, BillingConfig } from './config';
import { MeterEntity } from './meter/meter.entity';
import { PutRecoveryPolicyUseCase } from './recovery/put-recovery-policy.use-case';
import { RecoveryPolicyHandler } from './recovery/recovery-policy.handler';
import { RecoveryPolicyRepository } from './recovery/recovery-policy.repository';
import { RecoveryMetrics } from './recovery/recovery-metrics';
import { RecoveryReportHandler, RecoveryReportService } from './recovery/recovery-report.handler';
import { RecoveryReportRepository } from './recovery/recovery-report.repository';
import { MeterHandler } from './meter/meter.handler';
import { MeterRepository } from './meter/meter.repository';
import { CreateMeterUseCase } from './meter/create-meter.use-case';
import { MeterQueries } from './meter/meter-queries.service';
import { migrations } from './migrations';
import { PlanEntity } from './plan/plan.entity';
import { PlanHandler } from './plan/plan.handler';
import { PlanRepository } from './plan/plan.repository';
import { ArchivePlanUseCase } from './plan/archive-plan.use-case';
import { CreatePlanUseCase } from './plan/create-plan.use-case';
import { PlanQueries } from './plan/plan-queries.service';
import { UpdatePlanUseCase } from './plan/update-plan.use-case';
import { InvoiceExportHandler } from './invoice/invoice-export.handler';
import { BillingDesk } from './subscription/billing-desk';
import { InvoiceExportRepository } from './invoice/invoice-export.repository';
import { BillingEvents } from './billing-events';
import { InvoiceEntity } from './invoice/invoice.entity';
import { InvoiceRepository } from './invoice/invoice.repository';
import { PaymentsClient } from './payments/payments.client';
import { ChangePlanUseCase } from './subscription/change-plan.use-case';
import { CreateSubscriptionUseCase } from './subscription/create-subscription.use-case';
import { PaymentMethodUseCase } from './subscription/payment-method.use-case';
import { CancelSubscriptionUseCase } from './subscription/cancel-subscription.use-case';
import { PauseSubscriptionUseCase } from './subscription/pause-subscription.use-case';
import { ResumeSubscriptionUseCase } from './subscription/resume-subscription.use-case';
import { SubscriptionLifecycle } from './subscription/subscription-lifecycle';
import { SubscriptionLifecycleHandler } from './subscription/subscription-lifecycle.handler';
import { SubscriptionQueries } from './subscription/subscription-queries.service';
import { SubscriptionEntity } from './subscription/subscription.entity';
import { SubscriptionHandler } from './subscription/subscription.handler';
import { SubscriptionRepository } from './subscription/subscription.repository';
import { renewalHandlers, renewalProviders } from './renewal.wiring';
import { usageEntities, usageHandlers, usageProviders } from './usage/usage.wiring';

@Module({})
export class BillingModule {
  /** `overrides`: providers that replace the module's own of the same token (a test's fault injection). */
  static forRoot(config: BillingConfig, logger: Logger, clock?: Clock, overrides: Provider[] = []): DynamicModule {
    return {
      module: BillingModule,
      imports: [
        PlatformModule.forRoot({ app: 'billing', nats: natsSettingsOf(config), logger, clock }),
        serviceDatabase(() => ({
          app: 'billing',
          url: config.BILLING_DATABASE_URL,
          migrate: config.MIGRATIONS as MigrationMode,
          entities: [OutboxRow, PlanEntity, MeterEntity, SubscriptionEntity, InvoiceEntity, ...usageEntities],
          migrations,
          // Usage ingestion's transaction is a few statements sent together (inTransaction).
          pipeline: true,
          autovacuumOff: { refuse: refusesAutovacuumOff(config), warn: (m) => logger.warn(m) },
        })),
        OutboxModule.forRoot({ pollMs: config.OUTBOX_POLL_MS, stream: eventsStreamLimits(config) }),
      ],
      controllers: [
        pingHandler('billing'),
        PlanHandler,
        MeterHandler,
        SubscriptionHandler,
        SubscriptionLifecycleHandler,
        InvoiceExportHandler,
        RecoveryPolicyHandler,
        RecoveryReportHandler,
        ...usageHandlers,
        ...renewalHandlers,
      ],
      providers: [
        { provide: BILLING_CONFIG, useValue: config },
        { provide: RPC_TIMEOUT_MS, useValue: config.PAYMENTS_RPC_TIMEOUT_MS },
        RpcClient,
        PlanRepository,
        PlanQueries,
        CreatePlanUseCase,
        UpdatePlanUseCase,
        ArchivePlanUseCase,
        MeterRepository,
        MeterQueries,
        CreateMeterUseCase,
        PaymentsClient,
        BillingEvents,
        BillingDesk,
        // A subscription POST calls payments before its transaction: its key is leased (60 s, longer than any
        // payments call billing waits for), and a failed attempt keeps the subscription id for the retry.
        ...idempotencyProviders({
          fingerprintKey: config.IDEMPOTENCY_FINGERPRINT_KEY,
          lease: { ms: 60_000, keepResourceId: true, callKeyPrefix: 'billing' },
        }),
        SubscriptionRepository,
        InvoiceRepository,
        InvoiceExportRepository,
        SubscriptionQueries,
        CreateSubscriptionUseCase,
        SubscriptionLifecycle,
        CancelSubscriptionUseCase,
        PauseSubscriptionUseCase,
        ResumeSubscriptionUseCase,
        ChangePlanUseCase,
        PaymentMethodUseCase,
        RecoveryPolicyRepository,
        PutRecoveryPolicyUseCase,
        RecoveryMetrics,
        RecoveryReportRepository,
        RecoveryReportService,
        ...usageProviders,
        ...renewalProviders,
        ...overrides,
      ],
    };
  }
}
