import { DynamicModule, Module } from '@nestjs/common';
import { Logger } from 'pino';
import { Clock } from '@app/clock';
import { serviceDatabase } from '@app/database';
import { OutboxModule, OutboxRow } from '@app/outbox';
import { pingHandler, PlatformModule } from '@app/platform';
import { BillingConfig } from './config';
import { migrations } from './migrations';
import { usageEntities, usageHandlers, usageProviders } from './usage/usage.wiring';

@Module({})
export class BillingModule {
  static forRoot(config: BillingConfig, logger: Logger, clock?: Clock): DynamicModule {
    return {
      module: BillingModule,
      imports: [
        PlatformModule.forRoot({ app: 'billing', natsUrl: config.NATS_URL, logger, clock }),
        serviceDatabase(() => ({
          app: 'billing',
          url: config.BILLING_DATABASE_URL,
          entities: [OutboxRow, ...usageEntities],
          migrations,
        })),
        OutboxModule.forRoot({ pollMs: config.OUTBOX_POLL_MS }),
      ],
      controllers: [pingHandler('billing'), ...usageHandlers],
      providers: [...usageProviders],
    };
  }
}
