import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { DestinationStream } from 'pino';
import { Clock } from '@app/clock';
import { createLogger } from '@app/observability';
import { bootstrapService } from '@app/platform';
import { loadBillingConfig } from './config';
import { BillingModule } from './billing.module';

export interface StartBillingOptions {
  env?: NodeJS.ProcessEnv;
  logDestination?: DestinationStream;
  clock?: Clock;
}

export async function startBilling(o: StartBillingOptions = {}): Promise<INestApplication> {
  const config = loadBillingConfig(o.env);
  const logger = createLogger({ app: 'billing', level: config.LOG_LEVEL, destination: o.logDestination });
  return bootstrapService({
    service: 'billing',
    module: BillingModule.forRoot(config, logger, o.clock),
    httpPort: config.BILLING_HTTP_PORT,
    logger,
  });
}

if (require.main === module) {
  startBilling().catch((e: Error) => {
    process.stderr.write(`billing failed to start: ${e.message}\n`);
    process.exit(1);
  });
}
