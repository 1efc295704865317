import { DynamicModule, INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'pino';
import { ServiceName } from '@app/contracts';
import { CommandServer, CommandsModule } from '@app/messaging';
import { PinoNestLogger } from '@app/observability';

export interface ServiceBootOptions {
  service: ServiceName;
  module: DynamicModule;
  /** Port of the small HTTP server for /health and /metrics (0 picks a free one). */
  httpPort: number;
  logger: Logger;
}

@Module({})
class ServiceRootModule {}

/**
 * A service is a hybrid app: command handlers on NATS (queue group per service) and a small HTTP server for
 * health and metrics. Migrations have run by the time this returns.
 */
export async function bootstrapService(o: ServiceBootOptions): Promise<INestApplication> {
  const root: DynamicModule = { module: ServiceRootModule, imports: [o.module, CommandsModule.forService(o.service)] };
  const app = await NestFactory.create<NestFastifyApplication>(root, new FastifyAdapter(), {
    logger: new PinoNestLogger(o.logger),
  });
  app.enableShutdownHooks();
  await app.init();
  await app.get(CommandServer).listen();
  await app.listen(o.httpPort, '0.0.0.0');
  o.logger.info({ service: o.service, url: await app.getUrl() }, 'service started');
  return app;
}
