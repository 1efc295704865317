import { INestApplication } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { arrivedInternally, publicDocument } from './internal-port';
import { markInternalOperations, operationIdOf } from './openapi-tidy';
import { describeErrors } from './openapi-errors';
import { describeExamples } from './openapi-examples';

/**
 * The OpenAPI document of the gateway's routes. Admin, sandbox, hosted-page and browser-only routes carry
 * `x-internal: true`: they stay documented here, and the merchant client leaves them out.
 */
export function buildOpenApiDocument(app: INestApplication, publicBaseUrl: string, problems?: string[]): OpenAPIObject {
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
    .build();
  const document = describeExamples(
    describeErrors(SwaggerModule.createDocument(app, config, { operationIdFactory: operationIdOf }), problems),
  );
  markInternalOperations(document);
  return document;
}

/** The OpenAPI document at /openapi.json and a docs page at /docs, built from the route decorators. */
export function mountOpenApi(app: INestApplication, publicBaseUrl: string): OpenAPIObject {
  // Served as well as it can be described: the committed document is the strict one (openapi-emit.ts).
  const document = buildOpenApiDocument(app, publicBaseUrl, []);
  const publicDoc = publicDocument(document);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    // The public port describes the merchant API; the internal port adds the admin and sandbox routes.
    patchDocumentOnRequest: (req, _res, doc) =>
      arrivedInternally(req as IncomingMessage | { raw: IncomingMessage }) ? doc : publicDoc,
  });
  return document;
}
