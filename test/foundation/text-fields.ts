import { randomUUID } from 'node:crypto';
import * as contracts from '@app/contracts';
import { TEXT_LIMITS } from '@app/contracts';
import * as admin from '../../apps/gateway/src/admin/admin.dto';
import * as webhooks from '../../libs/contracts/src/webhooks/webhooks.dto';
import { cardData, paymentBody, usd } from '../payments/payments-fixtures';
import { HttpResult } from '../support/stack';
import { RouteCaller } from './route-caller';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type Ctor = Function;
const classes = new Map(
  [contracts, admin, webhooks]
    .flatMap((m) => Object.values(m))
    .filter((v) => typeof v === 'function')
    .map((c) => [(c as Ctor).name, c as Ctor]),
);

/** The TEXT_LIMITS rows that apply to a class: its own and its parents'. */
function limitsOf(name: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (let c = classes.get(name); c && c !== (Function.prototype as Ctor); c = Object.getPrototypeOf(c) as Ctor) {
    Object.assign(out, { ...TEXT_LIMITS[c.name], ...out });
  }
  return out;
}

const QUERY_CLASSES = ['MerchantQuery', 'PageQuery', 'ListPaymentsQuery', 'ListSubscriptionsQuery'];

/**
 * The answer for the field: the batch of usage events answers 200 with each event's own result, whose error
 * names the field within the event.
 */
export function answerOf(r: HttpResult, param: string): { status: number; error?: any; param?: string } {
  const inEvent = /^events\.0\./.test(param) && r.status === 200;
  if (!inEvent) return { status: r.status, error: r.body?.error, param: r.body?.error?.param };
  const result = r.body.results[0];
  return { status: result.status, error: result.error, param: result.error && `events.0.${result.error.param}` };
}

/** One free-text field of one route: `send` puts the value there in a request that is otherwise valid. */
export interface TextCase {
  route: string;
  param: string;
  where: 'body' | 'query';
  /** Its TEXT_LIMITS length; undefined for a query parameter without one. */
  max?: number;
  /** A list of strings: `send` puts the value in as its only item. */
  array?: boolean;
  send(value: string): Promise<HttpResult>;
}

export interface TextFields {
  cases: TextCase[];
  /** `metadata` objects in the bodies: `send` puts the given object there. */
  metadata: Array<{ route: string; param: string; send(metadata: Record<string, string>): Promise<HttpResult> }>;
  /** Limited fields whose OpenAPI schema does not state the limit as `maxLength`. */
  undocumented: string[];
}

/**
 * Every free-text field of every route of /openapi.json (the TEXT_LIMITS fields of its body's schemas and
 * their nested ones, its query parameters) and every `metadata` object, each with a way to send a value there.
 */
export async function textFields(caller: RouteCaller): Promise<TextFields> {
  const { stack, merchantCode } = caller;
  const schemas: Record<string, any> = (await stack.http('GET', '/openapi.json', { port: 'internal' })).body.components
    .schemas;

  /** A body of the schema that passes validation, so that only the field under test can fail. */
  const bases: Record<string, () => Record<string, unknown>> = {
    CreateMerchantRequest: () => ({ merchantCode: `m${randomUUID().slice(0, 8)}`, name: 'N' }),
    CreateKeyRequest: () => ({ merchantCodes: [merchantCode], type: 'private', environment: 'sandbox' }),
    AllowedOriginsRequest: () => ({ allowedOrigins: [] }),
    ConnectionRequest: () => ({
      connectionCode: 'c1',
      connectionName: 'C',
      acquirer: 'sandbox',
      environment: 'sandbox',
      currencies: [],
      methods: [],
      priority: 1,
    }),
    PurchaseRequest: () => paymentBody(merchantCode),
    CaptureRequest: () => ({ merchantCode, amount: usd(1) }),
    RefundRequest: () => ({ merchantCode, amount: usd(1) }),
    CancelRequest: () => ({ merchantCode }),
    CancelOrRefundRequest: () => ({ merchantCode }),
    CreatePlanRequest: () => ({ merchantCode, name: 'P', interval: 'month', amount: 100, currency: 'USD' }),
    UpdatePlanRequest: () => ({ merchantCode }),
    CreateMeterRequest: () => ({
      merchantCode,
      code: 'm1',
      name: 'M',
      aggregation: 'sum',
      pricing: { scheme: 'per_unit', unitAmount: 1 },
    }),
    CreateSubscriptionRequest: () => ({ merchantCode, planId: 1, customerEmail: 'a@b.co', card: cardData() }),
    MerchantBody: () => ({ merchantCode }),
    ChangePlanRequest: () => ({ merchantCode, planId: 1 }),
    PaymentMethodRequest: () => ({ merchantCode, card: cardData() }),
    CreateWebhookEndpointRequest: () => ({ merchantCode, url: 'https://example.com/h', events: ['payment.captured'] }),
    UpdateWebhookEndpointRequest: () => ({ merchantCode }),
    RollSecretRequest: () => ({ merchantCode }),
    MerchantQuery: () => ({ merchantCode }),
    SdkSessionRequest: () => ({ merchantCode }),
    CreateNonceRequest: () => cardData(),
    ResumeRequest: () => ({ sessionId: randomUUID() }),
    ChallengeOutcomeRequest: () => ({ outcome: 'success' }),
    SandboxChallengeRequest: () => ({ outcome: 'success', merchantCode }),
    SettleRequest: () => ({ outcome: 'settled', merchantCode }),
    CreatePaymentLinkRequest: () => ({ merchantCode, amount: usd(100), title: 'T' }),
    PayLinkRequest: () => ({ nonce: randomUUID() }),
    ResumeLinkRequest: () => ({ sessionId: randomUUID() }),
    AdvanceClockRequest: () => ({ merchantCode, by: 'PT1H' }),
    UsageRequest: () => ({ merchantCode, subscriptionId: randomUUID(), meterCode: 'm1', quantity: 1 }),
    UsageBatchRequest: () => ({
      merchantCode,
      events: [{ subscriptionId: randomUUID(), meterCode: 'm1', quantity: 1 }],
    }),
  };

  /** Where each table class appears in a schema: [class, path to the object] (the schema itself at ''). */
  function placesIn(schema: string, prefix = '', seen = new Set<string>()): [string, string][] {
    if (seen.has(schema)) return [];
    seen.add(schema);
    const out: [string, string][] = [[schema, prefix]];
    for (const [prop, spec] of Object.entries<any>(schemas[schema]?.properties ?? {})) {
      const ref: string | undefined = spec.$ref ?? spec.allOf?.[0]?.$ref ?? spec.items?.$ref;
      if (!ref) continue;
      const at = `${prefix}${prop}${spec.items ? '[0]' : ''}`;
      out.push(...placesIn(ref.split('/').pop()!, `${at}.`, seen));
    }
    return out;
  }

  function setAt(body: any, path: string, value: unknown): void {
    const keys = path.replace(/\[0\]/g, '.0').split('.');
    let at = body;
    for (const k of keys.slice(0, -1)) at = at[k] ??= /^\d+$/.test(k) ? [] : {};
    at[keys[keys.length - 1]] = value;
  }

  const fields: TextFields = { cases: [], metadata: [], undocumented: [] };
  for (const o of caller.operations) {
    const route = `${o.method} ${o.path}`;
    const sendBody = (param: string, value: unknown) => {
      const body = bases[o.body!]?.();
      if (!body) throw new Error(`no valid body for ${o.body}`);
      if (/(^|\.)nonceData\./.test(param)) setAt(body, 'card', { nonceData: { nonce: 'n' } });
      if (/(^|\.)tokenData\./.test(param)) setAt(body, 'card', { tokenData: { token: 't' } });
      setAt(body, param, value);
      return stack.http(o.method, caller.pathOf(o), { port: o.port, ...caller.auth(o), body });
    };
    if (o.body) {
      for (const [schema, prefix] of placesIn(o.body)) {
        if (schemas[schema]?.properties?.metadata) {
          const param = `${prefix}metadata`;
          fields.metadata.push({ route, param: param.replace(/\[0\]/g, '.0'), send: (m) => sendBody(param, m) });
        }
        for (const [field, max] of Object.entries(limitsOf(schema))) {
          const param = `${prefix}${field}`;
          const property = schemas[schema]?.properties?.[field];
          const isArray = property?.type === 'array';
          if (!isArray && property?.maxLength !== max)
            fields.undocumented.push(`${schema}.${field}: ${property?.maxLength}`);
          fields.cases.push({
            route,
            param: param.replace(/\[0\]/g, '.0'),
            where: 'body',
            max,
            array: isArray,
            send: (value) => sendBody(param, isArray ? [value] : value),
          });
        }
      }
    }
    for (const q of o.query) {
      fields.cases.push({
        route: `${route}?${q}`,
        param: q,
        where: 'query',
        max: QUERY_CLASSES.map((c) => TEXT_LIMITS[c][q]).find((m) => m !== undefined),
        send: (value) =>
          stack.http(o.method, `${caller.pathOf(o)}?${q}=${encodeURIComponent(value)}`, {
            port: o.port,
            ...caller.auth(o),
          }),
      });
    }
  }
  return fields;
}
