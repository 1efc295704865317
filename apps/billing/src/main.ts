import 'reflect-metadata';
import { INestApplication, Provider } from '@nestjs/common';
import { DestinationStream } from 'pino';
import { Clock } from '@app/clock';
import { createLogger, startTracing } from '@app/observability';
import { bootstrapService } from '@app/platform';
import { loadBillingConfig } from './config';
import { BillingModule } from './billing.module';

export interface StartBillingOptions {
  env?: NodeJS.ProcessEnv;
  logDestination?: DestinationStream;
  clock?: Clock;
  /** The process entry point: stop gracefully on SIGTERM/SIGINT, then exit. */
  stopOnSignals?: boolean;
  /** Providers that replace the module's own of the same token: how a test injects a fault (test/support/faults.js). */
  overrides?: Provider[];
}

export async function startBilling(o: StartBillingOptions = {}): Promise<INestApplication> {
  const config = loadBillingConfig(o.env);
  const logger = createLogger({ app: 'billing', level: config.LOG_LEVEL, destination: o.logDestination });
  await startTracing({
    app: 'billing',
    endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
    sampleRatio: config.OTEL_TRACES_SAMPLER_ARG,
  });
  return bootstrapService({
    service: 'billing',
    module: BillingModule.forRoot(config, logger, o.clock, o.overrides),
    httpPort: config.BILLING_HTTP_PORT,
    logger,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    stopOnSignals: o.stopOnSignals,
  });
}

if (require.main === module) {
  startBilling({ stopOnSignals: true }).catch((e: Error) => {
    process.stderr.write(`billing failed to start: ${e.message}\n`);
    process.exit(1);
  });
}
