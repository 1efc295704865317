import { Module } from '@nestjs/common';
import { SandboxClockModule } from './sandbox-clock.module';
import { SandboxClockController } from './sandbox-clock.controller';
import { SandboxPaymentsController } from './sandbox-payments.controller';
import { SandboxOnlyGuard } from './sandbox-route';

/** The sandbox simulation routes (`/v1/sandbox/…`): the merchant's clock, and acting as cardholder or bank. */
@Module({
  imports: [SandboxClockModule],
  controllers: [SandboxClockController, SandboxPaymentsController],
  providers: [SandboxOnlyGuard],
})
export class SandboxModule {}
