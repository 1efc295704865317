import { randomUUID } from 'node:crypto';
import * as contracts from '@app/contracts';
import { TEXT_LIMITS } from '@app/contracts';
import * as admin from '../../apps/gateway/src/admin/admin.dto';
import * as webhooks from '../../apps/gateway/src/webhooks/webhooks.dto';
import { cardData, paymentBody, usd } from '../payments/payments-fixtures';
import { HttpResult, TestStack } from '../support/stack';
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

/** A string of exactly `n` characters that also passes the field's format rules where it has one. */
function valueOf(field: string, n: number): string {
  if (/email/i.test(field)) {
    const local = 'a'.repeat(Math.min(64, n - 6));
    let domain = '';
    for (let rest = n - local.length - 1 - 4; rest > 0;) {
      const label = Math.min(63, rest - (domain ? 1 : 0));
      domain += (domain ? '.' : '') + 'b'.repeat(label);
      rest -= label + (domain.length > label ? 1 : 0);
    }
    return `${local}@${domain}.com`.slice(0, n).padEnd(n, 'm');
  }
  if (/url/i.test(field)) return `https://example.com/${'p'.repeat(n - 20)}`;
  return 'x'.repeat(n);
}

/**
 * The answer for the field: the batch of usage events answers 200 with each event's own result, whose error
 * names the field within the event.
 */
function answerOf(r: HttpResult, param: string): { status: number; error?: any; param?: string } {
  const inEvent = /^events\.0\./.test(param) && r.status === 200;
  if (!inEvent) return { status: r.status, error: r.body?.error, param: r.body?.error?.param };
  const result = r.body.results[0];
  return { status: result.status, error: result.error, param: result.error && `events.0.${result.error.param}` };
}

interface Case {
  route: string;
  param: string;
  max: number;
  send(value: string): Promise<HttpResult>;
}

describe('every text limit, on every route that takes the field', () => {
  let caller: RouteCaller;
  let stack: TestStack;
  let schemas: Record<string, any>;
  let key: string;
  let merchantCode: string;
  const cases: Case[] = [];
  const undocumented: string[] = [];

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
    RequiredMerchantBody: () => ({ merchantCode }),
    OptionalMerchantBody: () => ({ merchantCode }),
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

  beforeAll(async () => {
    caller = await RouteCaller.start();
    ({ stack, key, merchantCode } = caller);
    schemas = (await stack.http('GET', '/openapi.json', { port: 'internal' })).body.components.schemas;

    for (const o of caller.operations) {
      const route = `${o.method} ${o.path}`;
      if (o.body) {
        for (const [schema, prefix] of placesIn(o.body)) {
          for (const [field, max] of Object.entries(limitsOf(schema))) {
            const param = `${prefix}${field}`;
            const property = schemas[schema]?.properties?.[field];
            const isArray = property?.type === 'array';
            if (!isArray && property?.maxLength !== max)
              undocumented.push(`${schema}.${field}: ${property?.maxLength}`);
            cases.push({
              route,
              param: param.replace(/\[0\]/g, '.0'),
              max,
              send: (value) => {
                const body = bases[o.body!]?.();
                if (!body) throw new Error(`no valid body for ${o.body}`);
                if (/(^|\.)nonceData\./.test(param)) setAt(body, 'card', { nonceData: { nonce: 'n' } });
                if (/(^|\.)tokenData\./.test(param)) setAt(body, 'card', { tokenData: { token: 't' } });
                setAt(body, param, isArray ? [value] : value);
                return stack.http(o.method, caller.pathOf(o), { port: o.port, key: caller.credential(o), body });
              },
            });
          }
        }
      }
      for (const q of o.query) {
        const max = ['MerchantQuery', 'PageQuery', 'ListPaymentsQuery', 'ListSubscriptionsQuery']
          .map((c) => TEXT_LIMITS[c][q])
          .find((m) => m !== undefined);
        if (max === undefined) continue;
        cases.push({
          route: `${route}?${q}`,
          param: q,
          max,
          send: (value) =>
            stack.http(o.method, `${caller.pathOf(o)}?${q}=${encodeURIComponent(value)}`, {
              port: o.port,
              key: caller.credential(o),
            }),
        });
      }
    }
  }, 120_000);
  afterAll(() => stack.stop());

  it('finds the limited fields on the routes of /openapi.json', () => {
    const routes = new Set(cases.map((c) => `${c.route} ${c.param}`));
    expect(routes.size).toBeGreaterThan(150);
    for (const expected of [
      'POST /v1/payment-link description',
      'POST /v1/payment/purchase card.cardData.cardAddress.line1',
      'POST /v1/payment/purchase shopper.email',
      'POST /v1/checkout/{id}/pay customerName',
      'GET /v1/payment?startingAfter startingAfter',
      'POST /v1/subscription/usage/batch events.0.meterCode',
    ]) {
      expect(routes).toContain(expected);
    }
  });

  it('at the limit the field is taken; one more character is 400 VALIDATION_FAILED naming it', async () => {
    const wrong: string[] = [];
    for (const c of cases) {
      const at = answerOf(await c.send(valueOf(c.param, c.max)), c.param);
      if (at.status >= 500 || (at.param === c.param && /longer|shorter|characters/.test(at.error?.message))) {
        wrong.push(`${c.route} ${c.param} at ${c.max}: ${at.status} ${JSON.stringify(at.error)}`);
      }
      const over = answerOf(await c.send(valueOf(c.param, c.max + 1)), c.param);
      if (over.status !== 400 || over.error?.code !== 'VALIDATION_FAILED' || over.param !== c.param) {
        wrong.push(`${c.route} ${c.param} at ${c.max + 1}: ${over.status} ${JSON.stringify(over.error)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the OpenAPI document states each limit', () => {
    expect([...new Set(undocumented)]).toEqual([]);
  });

  it('a payment link description of 300 characters is refused', async () => {
    const r = await stack.http('POST', '/v1/payment-link', {
      key,
      body: { amount: usd(100), title: 'T', description: 'd'.repeat(300) },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'VALIDATION_FAILED', param: 'description' });
  });
});
