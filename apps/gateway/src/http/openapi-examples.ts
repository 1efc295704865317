import type { OpenAPIObject } from '@nestjs/swagger';
import type {
  MediaTypeObject,
  ReferenceObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { EXAMPLE_TIME, NamedExamples, NAMED_VALUES, SCHEMA_EXAMPLES } from './openapi-example-values';
import { OPERATION_EXAMPLES } from './openapi-operation-examples';
import { operationsOf } from './openapi-tidy';

type Schema = SchemaObject | ReferenceObject;
type Json = unknown;

const refName = (ref: string): string => ref.split('/').pop()!;
const UUID = '0193a5b2-7c4e-7d21-9f3a-5b6c7d8e9f01';

/** An override laid over a value: objects merge key by key, anything else (arrays too) replaces. */
function overlay(base: Json, over: Json): Json {
  if (!isObject(base) || !isObject(over)) return over;
  const out: Record<string, Json> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) delete out[key];
    else out[key] = key in base ? overlay(base[key], value) : value;
  }
  return out;
}

const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A scalar for a field without an example or a named value: by its format and type. */
function scalarOf(schema: SchemaObject, name: string): Json {
  if (schema.enum?.length) return schema.enum[0];
  if (schema.type === 'boolean') return false;
  if (schema.type === 'integer' || schema.type === 'number') return schema.minimum ?? 1;
  if (schema.format === 'date-time' || /(At|Date|^at|^now|Start|End)$/.test(name)) return EXAMPLE_TIME;
  if (schema.format === 'uuid' || /(^id|Id)$/.test(name)) return UUID;
  return name;
}

/**
 * An example value of a schema: each required field, and each optional one with an example of its own, from
 * the field's `example` or a value fitting its name and type; then the schema's entry in SCHEMA_EXAMPLES laid
 * over it. Built from the schemas, so a renamed or added field shows in the examples without a hand edit.
 */
export function exampleOf(document: OpenAPIObject, schema: Schema, name = '', depth = 0): Json {
  if (depth > 8) return {};
  if ('$ref' in schema) {
    const schemaName = refName(schema.$ref);
    const target = document.components?.schemas?.[schemaName] as Schema;
    return overlay(exampleOf(document, target, name, depth + 1), SCHEMA_EXAMPLES[schemaName] ?? {});
  }
  if (schema.example !== undefined) return schema.example as Json;
  if (name in NAMED_VALUES) return NAMED_VALUES[name];
  const combined = schema.allOf?.[0] ?? schema.oneOf?.[0] ?? schema.anyOf?.[0];
  if (combined) return exampleOf(document, combined, name, depth + 1);
  if (schema.type === 'array') return [exampleOf(document, schema.items ?? {}, '', depth + 1)];
  if (schema.type === 'object' || schema.properties) {
    const out: Record<string, Json> = {};
    for (const [key, property] of Object.entries(schema.properties ?? {})) {
      const wanted = schema.required?.includes(key) || ('example' in property && property.example !== undefined);
      if (!wanted) continue;
      const nullable = 'nullable' in property && property.nullable;
      out[key] = nullable && !(key in NAMED_VALUES) ? null : exampleOf(document, property, key, depth + 1);
    }
    return out;
  }
  return scalarOf(schema, name);
}

/** Named examples of a body: whole values for a request, overlays on the schema's example for an answer. */
function describe(
  document: OpenAPIObject,
  media: MediaTypeObject | undefined,
  named: NamedExamples | undefined,
  asOverlay: boolean,
): void {
  if (!media?.schema || media.example !== undefined || media.examples) return;
  const base = exampleOf(document, media.schema);
  if (!named) {
    media.example = base;
    return;
  }
  media.examples = Object.fromEntries(
    Object.entries(named).map(([key, { summary, value }]) => {
      const whole = !asOverlay ? value : Array.isArray(base) ? [overlay(base[0], value)] : overlay(base, value);
      return [key, { summary, value: whole }];
    }),
  );
}

/**
 * Request and answer examples on every JSON body of the document: an operation's own in OPERATION_EXAMPLES
 * (several named ones, e.g. a purchase by card, token or nonce), else one built from the body's schema.
 */
export function describeExamples(document: OpenAPIObject): OpenAPIObject {
  for (const { op } of operationsOf(document)) {
    const own = OPERATION_EXAMPLES[op.operationId ?? ''] ?? {};
    const body = op.requestBody && 'content' in op.requestBody ? op.requestBody.content : undefined;
    describe(document, body?.['application/json'], own.request, false);
    for (const [status, response] of Object.entries(op.responses)) {
      if (!status.startsWith('2') || !response || !('content' in response)) continue;
      describe(document, response.content?.['application/json'], own.responses?.[status], true);
    }
  }
  return document;
}
