import { DynamicModule, Module } from '@nestjs/common';
import { Logger } from 'pino';
import { Clock, SandboxClockCopy } from '@app/clock';
import { natsSettingsOf, refusesAutovacuumOff } from '@app/config';
import { MigrationMode, serviceDatabase } from '@app/database';
import { idempotencyProviders } from '@app/idempotency';
import { eventsStreamLimits, RPC_TIMEOUT_MS, RpcClient } from '@app/messaging';
import { OutboxModule, OutboxRow } from '@app/outbox';
import { ExpirySweepLoop, pingHandler, PlatformModule } from '@app/platform';
import { CheckoutHandler } from './checkout/checkout.handler';
import { CheckoutLinks } from './checkout/checkout-links';
import { PayLinkUseCase } from './checkout/pay-link.use-case';
import { ResumeLinkUseCase } from './checkout/resume-link.use-case';
import { LapsedUseCheck } from './checkout/lapsed-use.check';
import { LinkUseEntity } from './checkout/link-use.entity';
import { LinkUseLedger } from './checkout/link-use.ledger';
import { LinkUseReconcileLoop } from './checkout/link-use-reconcile.loop';
import { LinkUsesRepository } from './checkout/link-uses.repository';
import { PaymentsClient } from './checkout/payments.client';
import { PAYMENT_LINKS_CONFIG, PaymentLinksConfig } from './config';
import { LinkExpiry } from './link/link-expiry.service';
import { BillingClient } from './link/billing.client';
import { LinkRecorder } from './link/link-recorder';
import { LinksHandler } from './link/links.handler';
import { CancelLinkUseCase } from './link/cancel-link.use-case';
import { CreateLinkUseCase } from './link/create-link.use-case';
import { LinkQueries } from './link/link-queries.service';
import { PaymentLinkEntity } from './link/payment-link.entity';
import { PaymentLinkRepository } from './link/payment-link.repository';
import { migrations } from './migrations';
import { ClockAdvanceHandler } from './sandbox-clock/clock-advance.handler';
import { ClockAdvanceUseCase } from './sandbox-clock/clock-advance.use-case';

/** Payments and billing answer within the gateway's own RPC timeout, so a link call waits a little less. */
const DOWNSTREAM_TIMEOUT_MS = 9_000;

@Module({})
export class PaymentLinksModule {
  static forRoot(config: PaymentLinksConfig, logger: Logger, clock?: Clock): DynamicModule {
    return {
      module: PaymentLinksModule,
      imports: [
        PlatformModule.forRoot({ app: 'payment-links', nats: natsSettingsOf(config), logger, clock }),
        serviceDatabase(() => ({
          app: 'payment-links',
          url: config.PAYMENT_LINKS_DATABASE_URL,
          migrate: config.MIGRATIONS as MigrationMode,
          entities: [OutboxRow, PaymentLinkEntity, LinkUseEntity],
          migrations,
          autovacuumOff: { refuse: refusesAutovacuumOff(config), warn: (m) => logger.warn(m) },
        })),
        OutboxModule.forRoot({ pollMs: config.OUTBOX_POLL_MS, stream: eventsStreamLimits(config) }),
      ],
      controllers: [pingHandler('payment-links'), LinksHandler, CheckoutHandler, ClockAdvanceHandler],
      providers: [
        { provide: PAYMENT_LINKS_CONFIG, useValue: config },
        { provide: RPC_TIMEOUT_MS, useValue: DOWNSTREAM_TIMEOUT_MS },
        RpcClient,
        PaymentLinkRepository,
        LinkUsesRepository,
        LinkRecorder,
        ...idempotencyProviders({ fingerprintKey: config.IDEMPOTENCY_FINGERPRINT_KEY }),
        LinkExpiry,
        ExpirySweepLoop.register({
          name: 'link_expiry',
          everyMs: config.LINK_EXPIRY_SWEEP_MS,
          work: LinkExpiry,
          swept: 'expired payment links swept',
        }),
        BillingClient,
        PaymentsClient,
        LinkQueries,
        CreateLinkUseCase,
        CancelLinkUseCase,
        LinkUseLedger,
        LapsedUseCheck,
        LinkUseReconcileLoop,
        CheckoutLinks,
        PayLinkUseCase,
        ResumeLinkUseCase,
        SandboxClockCopy,
        ClockAdvanceUseCase,
      ],
    };
  }
}
