import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { markInternalOperations, operationIdOf } from './openapi-tidy';
import { describeErrors } from './openapi-errors';
import { describeExamples } from './openapi-examples';

/**
 * The OpenAPI document of the routes of the given applications (the gateway's internal and public ones for the
 * full document). Admin, hosted-page and browser-only routes carry `x-internal: true`: they stay documented
 * here, and the merchant client leaves them out.
 */
export function buildOpenApiDocument(
  apps: INestApplication[],
  publicBaseUrl: string,
  problems?: string[],
): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Payments platform API')
    .setDescription(
      'Card and APM payments, payment links and recurring billing. Authenticate with `Authorization: Bearer <key>`; ' +
        'the key prefix selects the environment. Every error answers `{"error": {status, code, message, param, requestId}}`.',
    )
    .setVersion('1.0.0')
    .addServer(publicBaseUrl)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'prv_sandbox_… or prv_production_…' }, 'privateKey')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' }, 'adminToken')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'A client token from POST /v1/sdk/session (browser SDK and hosted checkout only)',
      },
      'clientToken',
    )
    .addCookieAuth(
      'pp_dash',
      { type: 'apiKey', in: 'cookie', description: 'The dashboard session, set by POST /dashboard/api/session' },
      'dashboardSession',
    )
    .build();
  const parts = apps.map((app) => SwaggerModule.createDocument(app, config, { operationIdFactory: operationIdOf }));
  const document = describeExamples(describeErrors(merged(parts), problems));
  markInternalOperations(document);
  return document;
}

/** One document of several applications' routes: their paths, schemas and tags, in the given order. */
function merged([first, ...rest]: OpenAPIObject[]): OpenAPIObject {
  const paths = { ...first.paths };
  const schemas = { ...first.components?.schemas };
  const tags = [...(first.tags ?? [])];
  for (const part of rest) {
    for (const [path, item] of Object.entries(part.paths)) paths[path] = { ...paths[path], ...item };
    Object.assign(schemas, part.components?.schemas);
    tags.push(...(part.tags ?? []).filter((t) => !tags.some((known) => known.name === t.name)));
  }
  return { ...first, paths, tags, components: { ...first.components, schemas } };
}

/**
 * The OpenAPI document at /openapi.json and a docs page at /docs on each server, built from the route
 * decorators: the public server describes its own routes (the sandbox tools too: it serves them to sandbox
 * keys), the internal server every route of both (the admin API first). The admin API is on the internal
 * server's application only, so the public description cannot name it.
 */
export function mountOpenApi(publicApp: INestApplication, internalApp: INestApplication, publicBaseUrl: string): void {
  // Served as well as it can be described: the committed document is the strict one (scripts/openapi-emit.ts).
  const full = buildOpenApiDocument([internalApp, publicApp], publicBaseUrl, []);
  const merchantFacing = buildOpenApiDocument([publicApp], publicBaseUrl, []);
  const urls = { jsonDocumentUrl: 'openapi.json', yamlDocumentUrl: 'openapi.yaml' };
  SwaggerModule.setup('docs', publicApp, merchantFacing, urls);
  SwaggerModule.setup('docs', internalApp, full, urls);
}
