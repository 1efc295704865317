import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { AppStartOptions, runMain, startService } from '@app/platform';
import { loadPaymentLinksConfig } from './config';
import { PaymentLinksModule } from './payment-links.module';

export type StartPaymentLinksOptions = AppStartOptions;

export async function startPaymentLinks(o: StartPaymentLinksOptions = {}): Promise<INestApplication> {
  const config = loadPaymentLinksConfig(o.env);
  return startService('payment-links', config, {
    ...o,
    httpPort: config.PAYMENT_LINKS_HTTP_PORT,
    module: (logger) => PaymentLinksModule.forRoot(config, logger, o.clock),
  });
}

if (require.main === module) runMain('payment-links', startPaymentLinks);
