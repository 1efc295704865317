import { Module } from '@nestjs/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { SandboxClockModule } from '../sandbox/sandbox-clock.module';
import { KEYLESS_INQUIRY_OPTIONS, KeylessInquiryGuard, KeylessInquiryOptions } from './keyless-inquiry';
import { PaymentOperationsController } from './payment-operations.controller';
import { PaymentStatsController } from './payment-stats.controller';
import { PaymentsController } from './payments.controller';

/** The keyless inquiry's setting (its guard holds the per-address window). */
export function keylessInquiryOptionsOf(config: GatewayConfig): KeylessInquiryOptions {
  const perMinute = config.KEYLESS_INQUIRY_PER_MINUTE;
  return {
    enabled: perMinute > 0,
    perMinute,
    perCodePerMinute: config.KEYLESS_INQUIRY_PER_CODE_PER_MINUTE,
    globalPerMinute: config.KEYLESS_INQUIRY_GLOBAL_PER_MINUTE,
    production: config.KEYLESS_INQUIRY_PRODUCTION,
  };
}

/** The payment routes (forwarded to the payments service), with the keyless inquiry's guard. */
@Module({
  imports: [SandboxClockModule],
  controllers: [PaymentStatsController, PaymentsController, PaymentOperationsController],
  providers: [
    { provide: KEYLESS_INQUIRY_OPTIONS, inject: [GATEWAY_CONFIG], useFactory: keylessInquiryOptionsOf },
    KeylessInquiryGuard,
  ],
})
export class PaymentsModule {}
