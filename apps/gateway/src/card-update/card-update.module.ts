import { Module } from '@nestjs/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { HostedModule } from '../hosted/hosted.module';
import { MailModule } from '../mail/mail.module';
import { SandboxClockModule } from '../sandbox/sandbox-clock.module';
import { ClientTokensModule } from '../sdk/client-tokens.module';
import { CARD_UPDATE_CONSUMER, CardUpdateEventsConsumer } from './card-update-events.consumer';
import { CardUpdateLinks } from './card-update-links.repository';
import { CardUpdateLinksController } from './card-update-links.controller';
import { CardUpdateMail } from './card-update-mail';
import { CardUpdatePageController } from './card-update-page.controller';
import { CardUpdateSettingsController } from './card-update-settings.controller';

/** Card-update links: the merchant's routes, the hosted page, and the emails sent on billing's events. */
@Module({
  imports: [SandboxClockModule, MailModule, ClientTokensModule, HostedModule],
  controllers: [CardUpdateLinksController, CardUpdatePageController, CardUpdateSettingsController],
  providers: [
    CardUpdateLinks,
    CardUpdateMail,
    {
      provide: CARD_UPDATE_CONSUMER,
      inject: [GATEWAY_CONFIG],
      useFactory: (c: GatewayConfig) => c.CARD_UPDATE_CONSUMER_NAME,
    },
    CardUpdateEventsConsumer,
  ],
})
export class CardUpdateModule {}
