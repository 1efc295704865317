import 'reflect-metadata';
import { INestApplication, Provider } from '@nestjs/common';
import { AppStartOptions, runMain, startService } from '@app/platform';
import { loadWebhooksConfig } from './config';
import { WebhooksModule } from './webhooks.module';

export interface StartWebhooksOptions extends AppStartOptions {
  /** Providers that replace the module's own of the same token (test/support/faults.js). */
  overrides?: Provider[];
  /** Tests only: extra CA (PEM) trusted for webhook targets; deployments use NODE_EXTRA_CA_CERTS. */
  webhookCa?: string;
}

export async function startWebhooks(o: StartWebhooksOptions = {}): Promise<INestApplication> {
  const config = loadWebhooksConfig(o.env);
  return startService('webhooks', config, {
    ...o,
    httpPort: config.WEBHOOKS_HTTP_PORT,
    module: (logger) =>
      WebhooksModule.forRoot(config, logger, { clock: o.clock, overrides: o.overrides, extraCa: o.webhookCa }),
  });
}

if (require.main === module) runMain('webhooks', startWebhooks);
