import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCodes } from '@app/contracts';
import { validatedBody } from '@app/errors';
import * as contracts from '@app/contracts';
import * as adminDto from '../../apps/gateway/src/admin/admin.dto';
import * as cardUpdateDto from '../../apps/gateway/src/card-update/card-update.dto';
import * as dashboardDto from '../../apps/gateway/src/dashboard/dashboard.dto';
import * as dashboardTeamDto from '../../apps/gateway/src/dashboard/dashboard-team.dto';
import * as webhooksDto from '../../libs/contracts/src/webhooks/webhooks.dto';

const ROOT = join(__dirname, '../..');
const doc = JSON.parse(readFileSync(join(ROOT, 'clients/typescript/openapi.json'), 'utf8'));
const operations = Object.entries<Record<string, any>>(doc.paths).flatMap(([path, item]) =>
  Object.entries<any>(item).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, method, path, op })),
);
/** Fixed files served from memory, no input and no credential: no client error exists (.redocly.lint-ignore.yaml). */
const STATIC_ASSETS = [
  'GET /v1/sdk/js',
  'GET /v1/sdk/sdk.d.ts',
  'GET /checkout/assets/checkout.js',
  'GET /checkout/assets/checkout.css',
  'GET /checkout/assets/card-update.js',
  'GET /v1/3ds/assets/challenge.js',
  'GET /dashboard',
];
/** An example's value, through its reference to `components.examples` when it has one. */
const exampleValue = (example: any): any =>
  example.$ref ? doc.components.examples[example.$ref.split('/').pop()].value : example.value;
const jsonOf = (r: any) => r?.content?.['application/json'];
const examplesOf = (media: any): unknown[] =>
  media?.example !== undefined ? [media.example] : Object.values<any>(media?.examples ?? {}).map((e) => e.value);

describe('the OpenAPI document is complete', () => {
  it('has every operation answer its client errors, each naming its codes with the envelope and an example per code', () => {
    expect(operations.length).toBeGreaterThan(60);
    for (const { where, op } of operations) {
      const statuses = Object.keys(op.responses).map(Number);
      if (!STATIC_ASSETS.includes(where)) {
        expect({ where, has4xx: statuses.some((s) => s >= 400 && s < 500) }).toEqual({ where, has4xx: true });
      }
      expect({ where, has500: statuses.includes(500) }).toEqual({ where, has500: true });
      for (const status of statuses.filter((s) => s >= 400)) {
        const response = op.responses[status];
        const media = jsonOf(response);
        if (!media) {
          // A hosted page's own answer (HTML), not an API error.
          expect({ where, status, html: Object.keys(response.content ?? {}) }).toEqual({
            where,
            status,
            html: ['text/html'],
          });
          continue;
        }
        expect({ where, status, schema: media.schema }).toEqual({
          where,
          status,
          schema: { $ref: '#/components/schemas/ErrorEnvelope' },
        });
        const codes = Object.keys(media.examples ?? {});
        expect({ where, status, codes: codes.length > 0 }).toEqual({ where, status, codes: true });
        for (const code of codes) {
          // Each code exists in the code table and answers this very status.
          expect({ where, code, status: (ErrorCodes as Record<string, number>)[code] }).toEqual({
            where,
            code,
            status,
          });
          expect(response.description).toContain(`\`${code}\``);
          expect(exampleValue(media.examples[code]).error).toMatchObject({ status, code, message: expect.any(String) });
        }
      }
    }
  });

  it('documents the codes every route of a kind answers', () => {
    for (const { where, method, op } of operations) {
      const codes = (status: number) => Object.keys(jsonOf(op.responses[status])?.examples ?? {});
      const scheme = Object.keys(op.security?.[0] ?? {})[0];
      if (scheme) {
        expect({ where, c401: codes(401) }).toEqual({
          where,
          c401: expect.arrayContaining(['AUTH_MISSING', 'AUTH_INVALID']),
        });
        // A dashboard session has no scope to lack on its own routes; its changes need the CSRF token.
        if (scheme !== 'dashboardSession') {
          expect({ where, c403: codes(403) }).toEqual({
            where,
            c403: expect.arrayContaining(['AUTH_INSUFFICIENT_SCOPE']),
          });
        } else if (method !== 'get') {
          expect({ where, c403: codes(403) }).toEqual({ where, c403: expect.arrayContaining(['CSRF_INVALID']) });
        }
        // A dashboard route that checks the user's password (TOTP changes) may also answer the email's lockout.
        const c429 = scheme === 'dashboardSession' ? ['RATE_LIMITED', 'ACCOUNT_LOCKED'] : ['RATE_LIMITED'];
        expect({ where, c429: codes(429).filter((c) => c !== 'RATE_LIMITED' && !c429.includes(c)) }).toEqual({
          where,
          c429: [],
        });
        expect({ where, c429: codes(429) }).toEqual({ where, c429: expect.arrayContaining(['RATE_LIMITED']) });
      }
      if (scheme === 'privateKey')
        expect({ where, c403: codes(403) }).toEqual({ where, c403: expect.arrayContaining(['MERCHANT_MISMATCH']) });
      if (op.requestBody) {
        expect({ where, c400: codes(400) }).toEqual({ where, c400: expect.arrayContaining(['VALIDATION_FAILED']) });
        expect({ where, c413: codes(413), c415: codes(415) }).toEqual({
          where,
          c413: ['PAYLOAD_TOO_LARGE'],
          c415: ['UNSUPPORTED_MEDIA_TYPE'],
        });
      }
      if (op.parameters?.some((p: any) => p.name === 'Idempotency-Key') && method === 'post') {
        expect({ where, c422: codes(422) }).toEqual({
          where,
          c422: expect.arrayContaining(['IDEMPOTENCY_KEY_REUSED']),
        });
      }
    }
    const purchase = doc.paths['/v1/payment/purchase'].post.responses;
    expect(Object.keys(jsonOf(purchase[409]).examples).sort()).toEqual([
      'DUPLICATE_ORDER_CODE',
      'DUPLICATE_PAYMENT_CODE',
      'IDEMPOTENCY_IN_PROGRESS',
    ]);
    expect(purchase[409].headers['Retry-After']).toBeDefined();
    expect(Object.keys(jsonOf(purchase[400]).examples)).toContain('IDEMPOTENCY_KEY_REQUIRED');
    const declined = exampleValue(
      jsonOf(doc.paths['/v1/subscription'].post.responses[402]).examples.PAYMENT_DECLINED,
    ).error;
    expect(declined).toMatchObject({ paymentId: expect.any(String), refusalCode: { reasonCode: '51' } });
  });

  it('has a request example on every JSON body and an answer example on every JSON answer', () => {
    let bodies = 0;
    for (const { where, op } of operations) {
      const request = jsonOf(op.requestBody);
      if (request) {
        bodies++;
        expect({ where, requestExamples: examplesOf(request).length > 0 }).toEqual({ where, requestExamples: true });
      }
      for (const [status, response] of Object.entries<any>(op.responses)) {
        if (!status.startsWith('2') || !jsonOf(response)) continue;
        expect({ where, status, examples: examplesOf(jsonOf(response)).length > 0 }).toEqual({
          where,
          status,
          examples: true,
        });
      }
    }
    expect(bodies).toBeGreaterThan(30);
    const purchase = jsonOf(doc.paths['/v1/payment/purchase'].post.requestBody).examples;
    expect(Object.keys(purchase)).toEqual(expect.arrayContaining(['card', 'nonce', 'token']));
  });

  it('has merchantCode optional wherever a merchant route takes it, with the one description', () => {
    const schemaOf = (schema: any): any =>
      schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema;
    const merchantRoutes = operations.filter(({ op }) => Object.keys(op.security?.[0] ?? {})[0] === 'privateKey');
    const fields = merchantRoutes.flatMap(({ where, op }) => [
      ...(op.parameters ?? [])
        .filter((p: any) => p.name === 'merchantCode' && p.in === 'query')
        .map((p: any) => ({ where, required: p.required === true, description: p.description })),
      ...[schemaOf(jsonOf(op.requestBody)?.schema)]
        .filter((schema) => schema?.properties?.merchantCode)
        .map((schema) => ({
          where,
          required: (schema.required ?? []).includes('merchantCode'),
          description: schema.properties.merchantCode.description,
        })),
    ]);
    expect(fields.length).toBeGreaterThan(30);
    for (const field of fields)
      expect(field).toEqual({ where: field.where, required: false, description: contracts.MERCHANT_CODE_DESCRIPTION });
    for (const where of ['POST /v1/payment/{id}/capture', 'GET /v1/subscription/{id}'])
      expect(fields.map((f) => f.where)).toContain(where);
  });

  it('shows only sandbox test cards, never another card number', () => {
    const text = JSON.stringify(doc);
    const numbers = [...text.matchAll(/"cardNumber":"(\d{12,19})"/g)].map((m) => m[1]);
    expect(numbers.length).toBeGreaterThan(3);
    // The sandbox acquirer's cards with a behaviour, and the brands' approved test numbers.
    const testCards = new Set([
      ...Object.keys(contracts.SANDBOX_CARDS),
      ...Object.values(contracts.SANDBOX_BRAND_CARDS),
    ]);
    for (const number of new Set(numbers))
      expect({ number, testCard: testCards.has(number) }).toEqual({ number, testCard: true });
  });

  it('names every sandbox test card where a card number is accepted', () => {
    const cardFields = ['CardDataDto', 'NonceCardData'].map(
      (name) => doc.components.schemas[name].properties.cardNumber,
    );
    for (const field of cardFields) {
      expect(field.description).toContain(contracts.sandboxCardsDescription());
      for (const number of [...Object.keys(contracts.SANDBOX_CARDS), ...Object.values(contracts.SANDBOX_BRAND_CARDS)])
        expect(field.description).toContain(number);
    }
    for (const path of ['/v1/payment/purchase', '/v1/payment/authorization'])
      expect(doc.paths[path].post.description).toContain('docs/testing.md');
  });

  it('has request examples the API accepts: each passes its body class’s validation', async () => {
    const classes: Record<string, unknown> = {
      ...contracts,
      ...adminDto,
      ...webhooksDto,
      ...dashboardDto,
      ...dashboardTeamDto,
      ...cardUpdateDto,
    };
    let checked = 0;
    for (const { where, op } of operations) {
      const request = jsonOf(op.requestBody);
      const name = request?.schema?.$ref?.split('/').pop();
      if (!name) continue;
      const type = classes[name];
      expect({ where, name, known: typeof type }).toEqual({ where, name, known: 'function' });
      for (const example of examplesOf(request)) {
        const outcome = await validatedBody(type as new () => object, example).then(
          () => 'valid',
          (e: Error & { param?: string }) => `${e.message} (${e.param})`,
        );
        expect({ where, example, outcome }).toEqual({ where, example, outcome: 'valid' });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('passes the OpenAPI lint (Redocly, redocly.yaml) with no error and no warning', () => {
    const run = spawnSync(
      process.execPath,
      [require.resolve('@redocly/cli/bin/cli.js'), 'lint', 'clients/typescript/openapi.json', '--format=json'],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    const report = JSON.parse(run.stdout);
    expect({ totals: report.totals, problems: report.problems }).toEqual({
      totals: { errors: 0, warnings: 0, ignored: STATIC_ASSETS.length },
      problems: [],
    });
  }, 60_000);
});
