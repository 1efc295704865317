import { DynamicModule, INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'pino';
import { ServiceName } from '@app/contracts';
import { CommandServer, CommandsModule } from '@app/messaging';
import { PinoNestLogger } from '@app/observability';
import { stopOnSignals } from './stop-on-signals';

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
