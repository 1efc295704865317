import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { OpenAPIObject } from '@nestjs/swagger';
import { createLogger } from '@app/observability';
import { loadGatewayConfig } from '../apps/gateway/src/config';
import { GatewayModule } from '../apps/gateway/src/gateway.module';
import { InternalModule } from '../apps/gateway/src/internal/internal.module';
import { buildOpenApiDocument } from '../apps/gateway/src/http/openapi';
import { requireUniqueOperationIds } from '../apps/gateway/src/http/openapi-tidy';

/** The server named in the committed document: the gateway's default address. */
export const COMMITTED_SERVER_URL = 'http://localhost:3000';

/**
 * The gateway's OpenAPI document (both its servers' routes) for scripts/openapi.js, without a database or NATS:
 * Nest's preview mode builds the module graph (controllers and their route decorators) without instantiating a provider, so
 * nothing connects and the internal module borrows nothing.
 */
export async function emitOpenApiDocument(serverUrl = COMMITTED_SERVER_URL): Promise<OpenAPIObject> {
  const config = loadGatewayConfig({ NODE_ENV: 'development', PUBLIC_BASE_URL: serverUrl });
  const logger = createLogger({ app: 'gateway', level: 'silent' });
  const preview = { preview: true, logger: false } as const;
  const app = await NestFactory.create(GatewayModule.forRoot({ config, logger }), new FastifyAdapter(), preview);
  const internal = await NestFactory.create(InternalModule.forRoot(app, config), new FastifyAdapter(), preview);
  try {
    const document = buildOpenApiDocument([internal, app], serverUrl);
    requireUniqueOperationIds(document);
    return document;
  } finally {
    await internal.close();
    await app.close();
  }
}
