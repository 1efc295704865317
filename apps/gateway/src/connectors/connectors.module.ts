import { Module } from '@nestjs/common';
import { SandboxClockModule } from '../sandbox/sandbox-clock.module';
import { ConnectorWebhooksController } from './connector-webhooks.controller';

/** The providers' webhook route (forwarded to the payments service). */
@Module({
  imports: [SandboxClockModule],
  controllers: [ConnectorWebhooksController],
})
export class ConnectorsModule {}
