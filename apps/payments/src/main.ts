import 'reflect-metadata';
import { INestApplication, Provider } from '@nestjs/common';
import { AppStartOptions, runMain, startService } from '@app/platform';
import { loadPaymentsConfig } from './config';
import { ProviderConnector } from './connector/provider-connector';
import { PaymentsModule } from './payments.module';

export interface StartPaymentsOptions extends AppStartOptions {
  /**
   * Acquirer adapters besides the built-in sandbox one. One that names an acquirer already served takes its
   * place: that is how a test stands a misbehaving acquirer in for the sandbox.
   */
  connectors?: readonly ProviderConnector[];
  /** Providers that replace the module's own of the same token: how a test injects a fault (test/support/faults.js). */
  overrides?: Provider[];
}

export async function startPayments(o: StartPaymentsOptions = {}): Promise<INestApplication> {
  const config = loadPaymentsConfig(o.env);
  return startService('payments', config, {
    ...o,
    httpPort: config.PAYMENTS_HTTP_PORT,
    module: (logger) =>
      PaymentsModule.forRoot(config, logger, { clock: o.clock, connectors: o.connectors, overrides: o.overrides }),
  });
}

if (require.main === module) runMain('payments', startPayments);
