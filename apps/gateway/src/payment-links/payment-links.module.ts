import { Module } from '@nestjs/common';
import { SandboxClockModule } from '../sandbox/sandbox-clock.module';
import { PaymentLinksController } from './payment-links.controller';

/** The payment link routes (forwarded to the payment-links service); the hosted checkout is checkout/. */
@Module({
  imports: [SandboxClockModule],
  controllers: [PaymentLinksController],
})
export class PaymentLinksModule {}
