import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * Adyen's own OpenAPI documents (/work/shared/providers/adyen, kept in ../shared/providers): the Checkout API
 * v71 that `@adyen/api-library` 31 calls, and the standard webhooks. Schemas are compiled once per process, with
 * the documents' $refs resolved, by ajv's JSON Schema 2020-12 dialect (OpenAPI 3.1).
 */
const PROVIDERS =
  process.env.PROVIDER_DOCUMENTS ?? join(__dirname, '..', '..', '..', '..', '..', 'shared', 'providers');
const CHECKOUT = 'checkout-v71';
const WEBHOOKS = 'webhooks-v1';

interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, Record<string, Operation>>;
}
interface Operation {
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }>;
}

let loaded: { ajv: Ajv2020; checkout: OpenApiDocument; webhooks: OpenApiDocument } | undefined;
const compiled = new Map<string, ValidateFunction>();

function documents(): NonNullable<typeof loaded> {
  if (loaded) return loaded;
  const read = (file: string): OpenApiDocument & Record<string, unknown> =>
    JSON.parse(readFileSync(join(PROVIDERS, 'adyen', file), 'utf8')) as OpenApiDocument & Record<string, unknown>;
  const checkout = read('CheckoutService-v71.json');
  const webhooks = read('Webhooks-v1.json');
  // OpenAPI keywords (`example`, `x-…`, `discriminator`) are annotations here, not schema errors.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...checkout, $schema: undefined }, CHECKOUT);
  ajv.addSchema({ ...webhooks, $schema: undefined }, WEBHOOKS);
  loaded = { ajv, checkout, webhooks };
  return loaded;
}

function validator(documentId: string, ref: string): ValidateFunction {
  const key = `${documentId}${ref}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = documents().ajv.compile({ $ref: key });
    compiled.set(key, validate);
  }
  return validate;
}

const jsonSchemaRef = (part: { content?: Record<string, { schema: { $ref: string } }> } | undefined): string => {
  const ref = part?.content?.['application/json']?.schema.$ref;
  if (!ref) throw new Error('no application/json schema');
  return ref;
};

/** The problems of `value` against the schema, as "path message" lines; empty when it conforms. */
function problems(validate: ValidateFunction, value: unknown): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
}

/** `path` is the document's path template, e.g. `/payments/{paymentPspReference}/captures`. */
export function checkoutRequestProblems(path: string, body: unknown): string[] {
  const operation = documents().checkout.paths[path]?.post;
  if (!operation) return [`POST ${path} is not in the Checkout API v71`];
  return problems(validator(CHECKOUT, jsonSchemaRef(operation.requestBody)), body);
}

export function checkoutResponseProblems(path: string, status: number, body: unknown): string[] {
  const operation = documents().checkout.paths[path]?.post;
  const response = operation?.responses[String(status)];
  if (!response) return [`POST ${path} has no ${status} answer in the Checkout API v71`];
  return problems(validator(CHECKOUT, jsonSchemaRef(response)), body);
}

/** A standard webhook's body (NotificationRequest) against its event's schema in Webhooks-v1.json. */
export function webhookProblems(eventCode: string, body: unknown): string[] {
  const operation = documents().webhooks.webhooks[`/${eventCode}`]?.post;
  if (!operation) return [`${eventCode} is not a webhook of Webhooks-v1.json`];
  return problems(validator(WEBHOOKS, jsonSchemaRef(operation.requestBody)), body);
}
