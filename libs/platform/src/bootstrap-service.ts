import { DynamicModule, INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'pino';
import { ServiceName } from '@app/contracts';
import { natsTransport } from '@app/messaging';
import { PinoNestLogger } from '@app/observability';

export interface ServiceBootOptions {
  service: ServiceName;
  module: DynamicModule;
  natsUrl: string;
  /** Port of the small HTTP server for /health and /metrics (0 picks a free one). */
  httpPort: number;
  logger: Logger;
}

/**
 * A service is a hybrid app: command handlers on NATS (queue group per service) and a small HTTP server for
 * health and metrics. Migrations have run by the time this returns.
 */
export async function bootstrapService(o: ServiceBootOptions): Promise<INestApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(o.module, new FastifyAdapter(), {
    logger: new PinoNestLogger(o.logger),
  });
  app.connectMicroservice(natsTransport(o.service, o.natsUrl));
  app.enableShutdownHooks();
  await app.startAllMicroservices();
  await app.listen(o.httpPort, '0.0.0.0');
  o.logger.info({ service: o.service, url: await app.getUrl() }, 'service started');
  return app;
}
