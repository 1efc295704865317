import 'reflect-metadata';
import { INestApplication, Provider } from '@nestjs/common';
import { AppStartOptions, runMain, startService } from '@app/platform';
import { loadBillingConfig } from './config';
import { BillingModule } from './billing.module';

export interface StartBillingOptions extends AppStartOptions {
  /** Providers that replace the module's own of the same token: how a test injects a fault (test/support/faults.js). */
  overrides?: Provider[];
}

export async function startBilling(o: StartBillingOptions = {}): Promise<INestApplication> {
  const config = loadBillingConfig(o.env);
  return startService('billing', config, {
    ...o,
    httpPort: config.BILLING_HTTP_PORT,
    module: (logger) => BillingModule.forRoot(config, logger, o.clock, o.overrides),
  });
}

if (require.main === module) runMain('billing', startBilling);
