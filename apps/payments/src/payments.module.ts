import { DynamicModule, Module } from '@nestjs/common';
import { Logger } from 'pino';
import { Clock } from '@app/clock';
import { serviceDatabase } from '@app/database';
import { OutboxModule, OutboxRow } from '@app/outbox';
import { pingHandler, PlatformModule } from '@app/platform';
import { PaymentsConfig } from './config';
import { migrations } from './migrations';

@Module({})
export class PaymentsModule {
  static forRoot(config: PaymentsConfig, logger: Logger, clock?: Clock): DynamicModule {
    return {
      module: PaymentsModule,
      imports: [
        PlatformModule.forRoot({ app: 'payments', natsUrl: config.NATS_URL, logger, clock }),
        serviceDatabase(() => ({
          app: 'payments',
          url: config.PAYMENTS_DATABASE_URL,
          entities: [OutboxRow],
          migrations,
        })),
        OutboxModule.forRoot({ pollMs: config.OUTBOX_POLL_MS }),
      ],
      controllers: [pingHandler('payments')],
    };
  }
}
