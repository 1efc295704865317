import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Stripe's published example objects (/work/shared/providers/stripe/fixtures3.json, API version
 * 2026-07-29.dahlia, the one `stripe` 22.5.0 pins) and the shape check of every object the double answers with.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const FIXTURES_FILE = join(__dirname, '../../../../../shared/providers/stripe/fixtures3.json');
export const FIXTURES = (JSON.parse(readFileSync(FIXTURES_FILE, 'utf8')) as { resources: Record<string, JsonObject> })
  .resources;

/**
 * Members the fixture leaves out that the package's types declare optional (`name?:`), with an example value of
 * their type. Only these may be added to a fixture's keys. Paths are `<resource>.<key>.<key>`.
 */
const OPTIONAL: Readonly<Record<string, JsonObject>> = {
  // Stripe.PaymentIntent.LastPaymentError: every member but `type` is optional.
  'payment_intent.last_payment_error': {
    advice_code: '',
    charge: '',
    code: '',
    decline_code: '',
    doc_url: '',
    message: '',
    network_decline_code: '',
    param: '',
    payment_method_type: '',
  },
  // Stripe.PaymentIntent.NextAction.redirect_to_url?: RedirectToUrl { return_url: string | null; url: string | null }
  'payment_intent.next_action': { redirect_to_url: { return_url: '', url: '' } },
  // Stripe.Refund.failure_reason?: string
  refund: { failure_reason: '' },
};

/**
 * Members whose type is `X | null` (the package's types) where the fixture shows an example value: an answer may
 * hold null there. Where the fixture itself holds null, any scalar (or an expanded resource) is accepted.
 */
const NULLABLE = new Set([
  // Stripe.PaymentIntent
  'payment_intent.automatic_payment_methods',
  'payment_intent.canceled_at',
  'payment_intent.last_payment_error',
  'payment_intent.managed_payments',
  'payment_intent.next_action',
  'payment_intent.payment_method_configuration_details',
  'payment_intent.processing',
  'payment_intent.shipping',
  'payment_intent.transfer_data',
  // Stripe.Charge and Stripe.Charge.PaymentMethodDetails.Card
  'charge.balance_transaction',
  'charge.description',
  'charge.outcome',
  'charge.receipt_url',
  'charge.shipping',
  'charge.source',
  'charge.transfer_data',
  'charge.payment_method_details.card.installments',
  'charge.payment_method_details.card.wallet',
  'charge.payment_method_details.card.three_d_secure',
  // Stripe.PaymentMethod.BillingDetails and its Stripe.Address
  ...['email', 'phone', 'name', 'tax_id'].map((name) => `payment_method.billing_details.${name}`),
  ...['city', 'country', 'line1', 'line2', 'postal_code', 'state'].map(
    (name) => `payment_method.billing_details.address.${name}`,
  ),
  // Stripe.PaymentMethod.Card
  'payment_method.card.wallet',
  'payment_method.card.generated_from',
  // Stripe.Refund
  'refund.charge',
]);

const kind = (value: Json): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
const isObject = (value: Json): value is JsonObject => kind(value) === 'object';
/** An object naming a resource of the fixtures (an expanded id, an event's `data.object`). */
const resourceOf = (value: Json): string | undefined =>
  isObject(value) && typeof value.object === 'string' && FIXTURES[value.object] ? value.object : undefined;

/** Where `answer` differs in keys or value types from the fixture of its resource: one line per difference. */
export function shapeViolations(answer: unknown, resource: string): string[] {
  const fixture = FIXTURES[resource];
  if (!fixture) return [`${resource}: no such resource in fixtures3.json`];
  const out: string[] = [];
  compareObject(answer as Json, fixture, resource, resource, out);
  return out;
}

function compareObject(answer: Json, fixture: JsonObject, path: string, key: string, out: string[]): void {
  if (!isObject(answer)) {
    out.push(`${path}: ${kind(answer)} where the fixture has an object`);
    return;
  }
  const optional = OPTIONAL[key] ?? {};
  for (const name of Object.keys(fixture)) {
    if (!(name in answer)) out.push(`${path}.${name}: missing (fixture key)`);
  }
  for (const [name, value] of Object.entries(answer)) {
    const example = name in fixture ? fixture[name] : optional[name];
    if (example === undefined) {
      out.push(`${path}.${name}: not a key of the fixture`);
      continue;
    }
    compareValue(value, example, `${path}.${name}`, `${key}.${name}`, out);
  }
}

function compareValue(value: Json, example: Json, path: string, key: string, out: string[]): void {
  const resource = resourceOf(value);
  if (resource && !(isObject(example) && example.object === resource)) {
    // An expanded resource where the fixture has its id (or null, or another resource's example).
    compareObject(value, FIXTURES[resource], path, resource, out);
    return;
  }
  if (key.endsWith('.metadata') && isObject(value)) {
    // Stripe.Metadata: a free-form map of strings (the fixture shows an empty or example map).
    for (const [name, item] of Object.entries(value)) {
      if (typeof item !== 'string') out.push(`${path}.${name}: ${kind(item)} in metadata, which holds strings`);
    }
    return;
  }
  if (value === null) {
    if (example !== null && !NULLABLE.has(key)) out.push(`${path}: null where the fixture has ${kind(example)}`);
    return;
  }
  if (example === null) {
    if (isObject(value) || Array.isArray(value)) out.push(`${path}: ${kind(value)} where the fixture has null`);
    return;
  }
  if (kind(value) !== kind(example)) {
    out.push(`${path}: ${kind(value)} where the fixture has ${kind(example)}`);
    return;
  }
  if (Array.isArray(value) && Array.isArray(example)) {
    value.forEach((item, i) => {
      if (example.length > 0) compareValue(item, example[0], `${path}[${i}]`, `${key}[]`, out);
      else if (isObject(item) && !resourceOf(item)) out.push(`${path}[${i}]: an object the fixture's list has none of`);
      else if (resourceOf(item)) compareValue(item, null, `${path}[${i}]`, `${key}[]`, out);
    });
    return;
  }
  if (isObject(value) && isObject(example)) compareObject(value, example, path, key, out);
}

/** A deep copy of the fixture object of `resource`, to build answers from. */
export function fixtureCopy(resource: string): JsonObject {
  return structuredClone(FIXTURES[resource]);
}
