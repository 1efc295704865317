import { Module } from '@nestjs/common';
import { AccountsModule } from '../auth/accounts.module';
import { CardTestingModule } from '../card-testing/card-testing.module';
import { HostedModule } from '../hosted/hosted.module';
import { SandboxClockModule } from '../sandbox/sandbox-clock.module';
import { ClientTokensModule } from '../sdk/client-tokens.module';
import { CheckoutController } from './checkout.controller';

/** A payment link's hosted checkout: its page and the payer's pay and resume calls (client tokens). */
@Module({
  imports: [SandboxClockModule, ClientTokensModule, AccountsModule, CardTestingModule, HostedModule],
  controllers: [CheckoutController],
})
export class CheckoutModule {}
