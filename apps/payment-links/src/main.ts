import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { DestinationStream } from 'pino';
import { Clock } from '@app/clock';
import { createLogger, startTracing } from '@app/observability';
import { bootstrapService } from '@app/platform';
import { loadPaymentLinksConfig } from './config';
import { PaymentLinksModule } from './payment-links.module';

export interface StartPaymentLinksOptions {
  env?: NodeJS.ProcessEnv;
  logDestination?: DestinationStream;
  clock?: Clock;
  /** The process entry point: stop gracefully on SIGTERM/SIGINT, then exit. */
  stopOnSignals?: boolean;
}

export async function startPaymentLinks(o: StartPaymentLinksOptions = {}): Promise<INestApplication> {
  const config = loadPaymentLinksConfig(o.env);
  const logger = createLogger({ app: 'payment-links', level: config.LOG_LEVEL, destination: o.logDestination });
  await startTracing({
    app: 'payment-links',
    endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
    sampleRatio: config.OTEL_TRACES_SAMPLER_ARG,
  });
  return bootstrapService({
    service: 'payment-links',
    module: PaymentLinksModule.forRoot(config, logger, o.clock),
    httpPort: config.PAYMENT_LINKS_HTTP_PORT,
    logger,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    stopOnSignals: o.stopOnSignals,
  });
}

if (require.main === module) {
  startPaymentLinks({ stopOnSignals: true }).catch((e: Error) => {
    process.stderr.write(`payment-links failed to start: ${e.message}\n`);
    process.exit(1);
  });
}
