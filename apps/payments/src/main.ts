import 'reflect-metadata';
import { INestApplication, Provider } from '@nestjs/common';
import { DestinationStream } from 'pino';
import { Clock } from '@app/clock';
import { createLogger, startTracing } from '@app/observability';
import { bootstrapService } from '@app/platform';
import { loadPaymentsConfig } from './config';
import { Connector } from './connector/connector';
import { PaymentsModule } from './payments.module';

export interface StartPaymentsOptions {
  env?: NodeJS.ProcessEnv;
  logDestination?: DestinationStream;
  clock?: Clock;
  /** The process entry point: stop gracefully on SIGTERM/SIGINT, then exit. */
  stopOnSignals?: boolean;
  /**
   * Acquirer adapters besides the built-in sandbox one. One that names an acquirer already served takes its
   * place: that is how a test stands a misbehaving acquirer in for the sandbox.
   */
  connectors?: readonly Connector[];
  /** Providers that replace the module's own of the same token: how a test injects a fault (test/support/faults.js). */
  overrides?: Provider[];
}

export async function startPayments(o: StartPaymentsOptions = {}): Promise<INestApplication> {
  const config = loadPaymentsConfig(o.env);
  const logger = createLogger({ app: 'payments', level: config.LOG_LEVEL, destination: o.logDestination });
  await startTracing({
    app: 'payments',
    endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
    sampleRatio: config.OTEL_TRACES_SAMPLER_ARG,
  });
  return bootstrapService({
    service: 'payments',
    module: PaymentsModule.forRoot(config, logger, {
      clock: o.clock,
      connectors: o.connectors,
      overrides: o.overrides,
    }),
    httpPort: config.PAYMENTS_HTTP_PORT,
    logger,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    stopOnSignals: o.stopOnSignals,
  });
}

if (require.main === module) {
  startPayments({ stopOnSignals: true }).catch((e: Error) => {
    process.stderr.write(`payments failed to start: ${e.message}\n`);
    process.exit(1);
  });
}
