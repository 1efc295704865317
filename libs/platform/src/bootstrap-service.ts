import { DynamicModule, INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DestinationStream, Logger } from 'pino';
import { Clock } from '@app/clock';
import { commonEnv, ConfigOf } from '@app/config';
import { ServiceName } from '@app/contracts';
import { CommandServer, CommandsModule } from '@app/messaging';
import { createLogger, PinoNestLogger, startTracing } from '@app/observability';
import { stopOnSignals } from './stop-on-signals';

/** How an app is started: a test gives its env, log destination and clock; the process entry point its signals. */
export interface AppStartOptions {
  env?: NodeJS.ProcessEnv;
  logDestination?: DestinationStream;
  clock?: Clock;
  /** The process entry point: stop gracefully on SIGTERM/SIGINT, then exit. */
  stopOnSignals?: boolean;
}

type ObservedConfig = Pick<
  ConfigOf<typeof commonEnv>,
  'LOG_LEVEL' | 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_TRACES_SAMPLER_ARG' | 'SHUTDOWN_TIMEOUT_MS'
>;

/** The first step of every app's start: its logger, and its tracing when an OTLP endpoint is set. */
export async function startAppLogging(
  app: string,
  config: ObservedConfig,
  destination?: DestinationStream,
): Promise<Logger> {
  const logger = createLogger({ app, level: config.LOG_LEVEL, destination });
  await startTracing({
    app,
    endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
    sampleRatio: config.OTEL_TRACES_SAMPLER_ARG,
  });
  return logger;
}

/** An app's process entry point: start it, stopping on SIGTERM/SIGINT; a failed start says why and exits 1. */
export function runMain(app: string, start: (o: { stopOnSignals: true }) => Promise<unknown>): void {
  start({ stopOnSignals: true }).catch((e: Error) => {
    process.stderr.write(`${app} failed to start: ${e.message}\n`);
    process.exit(1);
  });
}

export interface ServiceBootOptions {
  service: ServiceName;
  module: DynamicModule;
  /** Port of the small HTTP server for /health and /metrics (0 picks a free one). */
  httpPort: number;
  logger: Logger;
  /** SHUTDOWN_TIMEOUT_MS: how long stopping may take, the commands in hand included. */
  shutdownTimeoutMs: number;
  /** The process entry point: stop gracefully on SIGTERM/SIGINT and exit (tests close the app themselves). */
  stopOnSignals?: boolean;
}

@Module({})
class ServiceRootModule {}

/**
 * A service is a hybrid app: command handlers on NATS (queue group per service) and a small HTTP server for
 * health and metrics. Migrations have run by the time this returns. Stopping drains the command
 * subscriptions first (the other replicas take new commands) and answers the commands in hand; the health
 * server stays up meanwhile, its readiness saying 503.
 */
export async function bootstrapService(o: ServiceBootOptions): Promise<INestApplication> {
  const root: DynamicModule = {
    module: ServiceRootModule,
    imports: [o.module, CommandsModule.forService(o.service, o.shutdownTimeoutMs)],
  };
  const app = await NestFactory.create<NestFastifyApplication>(root, new FastifyAdapter(), {
    logger: new PinoNestLogger(o.logger),
    // A failed start throws to the caller (an app's main exits 1; a test sees the error) instead of Nest exiting.
    abortOnError: false,
  });
  await app.init();
  const commands = app.get(CommandServer);
  await commands.listen();
  await app.listen(o.httpPort, '0.0.0.0');
  if (o.stopOnSignals) {
    stopOnSignals(app, { logger: o.logger, timeoutMs: o.shutdownTimeoutMs, stopIntake: () => commands.drain() });
  }
  o.logger.info({ service: o.service, url: await app.getUrl() }, 'service started');
  return app;
}

/** A service started from its loaded config: its logging and tracing, then its module built with that logger. */
export async function startService(
  service: ServiceName,
  config: ObservedConfig,
  o: AppStartOptions & { httpPort: number; module: (logger: Logger) => DynamicModule },
): Promise<INestApplication> {
  const logger = await startAppLogging(service, config, o.logDestination);
  return bootstrapService({
    service,
    module: o.module(logger),
    httpPort: o.httpPort,
    logger,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    stopOnSignals: o.stopOnSignals,
  });
}
