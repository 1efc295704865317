import { DynamicModule, Module } from '@nestjs/common';
import { Logger } from 'pino';
import { Clock } from '@app/clock';
import { serviceDatabase } from '@app/database';
import { OutboxModule, OutboxRow } from '@app/outbox';
import { pingHandler, PlatformModule } from '@app/platform';
import { PaymentLinksConfig } from './config';
import { migrations } from './migrations';

@Module({})
export class PaymentLinksModule {
  static forRoot(config: PaymentLinksConfig, logger: Logger, clock?: Clock): DynamicModule {
    return {
      module: PaymentLinksModule,
      imports: [
        PlatformModule.forRoot({ app: 'payment-links', natsUrl: config.NATS_URL, logger, clock }),
        serviceDatabase(() => ({
          app: 'payment-links',
          url: config.PAYMENT_LINKS_DATABASE_URL,
          entities: [OutboxRow],
          migrations,
        })),
        OutboxModule.forRoot({ pollMs: config.OUTBOX_POLL_MS }),
      ],
      controllers: [pingHandler('payment-links')],
    };
  }
}
