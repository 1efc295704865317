import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { describeLimits } from './openapi-limits';

/** The OpenAPI document at /openapi.json and a docs page at /docs, built from the route decorators. */
export function mountOpenApi(app: INestApplication, publicBaseUrl: string): OpenAPIObject {
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
    .build();
  const document = describeLimits(SwaggerModule.createDocument(app, config));
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json', yamlDocumentUrl: 'openapi.yaml' });
  return document;
}
