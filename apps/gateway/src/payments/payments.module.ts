import { Provider } from '@nestjs/common';
import { GatewayConfig } from '../config';
import { KEYLESS_INQUIRY_OPTIONS, KeylessInquiryGuard, KeylessInquiryOptions } from './keyless-inquiry';
import { PaymentOperationsController } from './payment-operations.controller';
import { PaymentStatsController } from './payment-stats.controller';
import { PaymentsController } from './payments.controller';

/** The payment routes (forwarded to the payments service). */
export const paymentControllers = [PaymentStatsController, PaymentsController, PaymentOperationsController];

/** The keyless inquiry's setting and its guard (which holds the per-address window). */
export function paymentProviders(config: GatewayConfig): Provider[] {
  const perMinute = config.KEYLESS_INQUIRY_PER_MINUTE;
  const options: KeylessInquiryOptions = {
    enabled: perMinute > 0,
    perMinute,
    perCodePerMinute: config.KEYLESS_INQUIRY_PER_CODE_PER_MINUTE,
    globalPerMinute: config.KEYLESS_INQUIRY_GLOBAL_PER_MINUTE,
    production: config.KEYLESS_INQUIRY_PRODUCTION,
  };
  return [{ provide: KEYLESS_INQUIRY_OPTIONS, useValue: options }, KeylessInquiryGuard];
}
