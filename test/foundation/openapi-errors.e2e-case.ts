import { randomUUID } from 'node:crypto';
import { cardData, paymentBody, PaymentsClient, usd } from '../payments/payments-fixtures';
import { ApiOperation } from '../support/openapi-routes';
import { HttpResult, TestStack } from '../support/stack';
import { RouteCaller } from './route-caller';

/**
 * The OpenAPI document tells the truth about errors: every error the real stack answers on a route is one the
 * route's document lists under that status, whatever the route and however it is called wrong.
 */
describe('the error codes the OpenAPI document lists are the ones the routes answer', () => {
  let caller: RouteCaller;
  let stack: TestStack;
  let doc: any;
  let payments: PaymentsClient;
  const answered = new Map<string, Set<string>>();

  beforeAll(async () => {
    caller = await RouteCaller.start();
    stack = caller.stack;
    doc = (await stack.http('GET', '/openapi.json', { port: 'internal' })).body;
    payments = new PaymentsClient(stack, caller.key, caller.merchantCode);
  });
  afterAll(() => stack.stop());

  /** The answer is a 2xx, or an error whose code the route documents under its status; never a bare 500. */
  function expectDocumented(method: string, path: string, r: HttpResult, label = ''): void {
    const where = `${method} ${path} ${label}`.trim();
    expect({ where, status: r.status, notInternal: r.status !== 500 }).toEqual({
      where,
      status: r.status,
      notInternal: true,
    });
    if (r.status < 400) return;
    const documented = doc.paths[path][method.toLowerCase()].responses[r.status];
    if (typeof r.body === 'string' && documented?.content?.['text/html']) return; // a hosted page's own answer
    const code: string = r.body?.error?.code;
    const examples = documented?.content?.['application/json']?.examples;
    expect({ where, status: r.status, code, documented: Object.keys(examples ?? {}) }).toEqual({
      where,
      status: r.status,
      code,
      documented: expect.arrayContaining([code]),
    });
    answered.set(`${method} ${path}`, (answered.get(`${method} ${path}`) ?? new Set<string>()).add(code));
  }

  /** The operation's first request example, as this merchant. */
  function exampleBody(o: ApiOperation): unknown {
    const media = doc.paths[o.path][o.method.toLowerCase()].requestBody?.content?.['application/json'];
    if (!media) return undefined;
    const example = media.example ?? Object.values<any>(media.examples ?? {})[0]?.value;
    return example && 'merchantCode' in example ? { ...example, merchantCode: caller.merchantCode } : example;
  }

  const call = (o: ApiOperation, extra: { key?: string; body?: unknown; rawBody?: string; query?: string } = {}) =>
    stack.http(o.method, `${caller.pathOf(o)}${extra.query ?? ''}`, {
      port: o.port,
      key: 'key' in extra ? extra.key : caller.credential(o),
      body: extra.rawBody !== undefined ? undefined : 'body' in extra ? extra.body : exampleBody(o),
      rawBody: extra.rawBody,
      headers: {
        ...caller.page(o),
        'idempotency-key': randomUUID(),
        ...(extra.rawBody !== undefined ? { 'content-type': 'application/json' } : {}),
      },
    });

  it('every route, called with its own request example and unknown ids, answers 2xx or a documented error', async () => {
    const succeeded: string[] = [];
    for (const o of caller.operations) {
      const r = await call(o);
      expectDocumented(o.method, o.path, r);
      if (r.status < 300) succeeded.push(`${o.method} ${o.path}`);
    }
    expect(caller.operations.length).toBeGreaterThan(60);
    // The examples run: these routes' own request examples succeed as they stand (others name objects that a
    // fresh stack does not have, such as plan 7, and answer a documented 404).
    expect(succeeded).toEqual(
      expect.arrayContaining([
        'POST /v1/payment/purchase',
        'POST /v1/admin/merchants/{merchantCode}/connections',
        'POST /v1/subscription/meter',
        'POST /v1/webhook-endpoint',
        'POST /v1/webhook-secret/roll',
        'POST /v1/sdk/session',
        'POST /v1/sdk/nonce',
        'POST /v1/payment-link',
        'POST /v1/sandbox/clock/advance',
        'POST /v1/subscription/usage/batch',
      ]),
    );
  });

  it('every route with a credential answers a missing one, a public key and another merchant as documented', async () => {
    const { key: publicKey } = await stack.key([caller.merchantCode], 'public');
    for (const o of caller.operations.filter((op) => op.auth)) {
      const missing = await call(o, { key: undefined });
      expect(missing.body.error.code).toBe('AUTH_MISSING');
      expectDocumented(o.method, o.path, missing, 'without a credential');
      expectDocumented(o.method, o.path, await call(o, { key: 'no-such-credential' }), 'with an unknown credential');
      if (o.auth !== 'privateKey') continue;
      const scoped = await call(o, { key: publicKey });
      expect(scoped.body.error.code).toBe('AUTH_INSUFFICIENT_SCOPE');
      expectDocumented(o.method, o.path, scoped, 'with a public key');
      const other = o.body
        ? await call(o, { body: { ...(exampleBody(o) as object), merchantCode: 'not-mine' } })
        : await call(o, { query: '?merchantCode=not-mine' });
      expect({ where: `${o.method} ${o.path}`, code: other.body.error?.code }).toEqual({
        where: `${o.method} ${o.path}`,
        code: 'MERCHANT_MISMATCH',
      });
      expectDocumented(o.method, o.path, other, 'for another merchant');
    }
  });

  it('every route that reads a body answers malformed JSON and a body that is not JSON as documented', async () => {
    for (const o of caller.operations.filter((op) => op.body)) {
      const malformed = await call(o, { rawBody: '{"merchantCode":' });
      expect({ where: `${o.method} ${o.path}`, answer: malformed.body }).toEqual({
        where: `${o.method} ${o.path}`,
        answer: { error: expect.objectContaining({ code: 'VALIDATION_FAILED' }) },
      });
      expectDocumented(o.method, o.path, malformed, 'malformed JSON');
      const xml = await stack.http(o.method, caller.pathOf(o), {
        port: o.port,
        key: caller.credential(o),
        rawBody: '<amount>1999</amount>',
        headers: { 'content-type': 'application/xml' },
      });
      expect({ where: `${o.method} ${o.path}`, status: xml.status }).toEqual({
        where: `${o.method} ${o.path}`,
        status: 415,
      });
      expectDocumented(o.method, o.path, xml, 'application/xml');
    }
  });

  it('the payment routes answer the domain errors they document', async () => {
    const purchase = await payments.purchase({ amount: usd(1999) });
    expect(purchase.body.status).toBe('captured');
    const id = purchase.body.id;
    const op = (name: string) => `/v1/payment/{id}/${name}`;
    const expectCode = (path: string, r: HttpResult, code: string) => {
      expect({ path, code: r.body?.error?.code }).toEqual({ path, code });
      expectDocumented('POST', path, r);
    };
    expectCode(op('capture'), await payments.capture(id, 1999), 'INVALID_STATE');
    expectCode(op('refund'), await payments.refund(id, 5000), 'AMOUNT_EXCEEDS_AVAILABLE');
    expectCode(
      op('refund'),
      await payments.operate(id, 'refund', { amount: { currency: 'EUR', value: 100, exponent: 2 } }),
      'CURRENCY_MISMATCH',
    );
    expectCode(
      op('refund'),
      await payments.operate(id, 'refund', { amount: { currency: 'USD', value: 100, exponent: 3 } }),
      'INVALID_EXPONENT',
    );
    const key = randomUUID();
    expect((await payments.refund(id, 100, key)).status).toBe(200);
    expectCode(op('refund'), await payments.refund(id, 200, key), 'IDEMPOTENCY_KEY_REUSED');
    const again = await payments.purchase({ orderCode: purchase.body.orderCode });
    expectCode('/v1/payment/purchase', again, 'DUPLICATE_ORDER_CODE');
    const code = `pay-${randomUUID()}`;
    expect((await payments.purchase({ paymentCode: code })).status).toBe(200);
    expectCode('/v1/payment/purchase', await payments.purchase({ paymentCode: code }), 'DUPLICATE_PAYMENT_CODE');

    const production = await stack.key([caller.merchantCode], 'private', 'production');
    const keyless = await stack.http('POST', '/v1/payment/purchase', {
      key: production.key,
      body: paymentBody(caller.merchantCode),
    });
    expectCode('/v1/payment/purchase', keyless, 'IDEMPOTENCY_KEY_REQUIRED');

    const second = await stack.merchant();
    const shared = await stack.key([caller.merchantCode, second]);
    const list = await stack.http('GET', '/v1/payment', { key: shared.key });
    expect(list.body.error.code).toBe('MERCHANT_CODE_REQUIRED');
    expectDocumented('GET', '/v1/payment', list);
  });

  it('a subscription whose first charge is declined answers the documented 402', async () => {
    const plan = await stack.http('POST', '/v1/subscription/plan', {
      key: caller.key,
      body: { name: 'Pro monthly', interval: 'month', amount: 1999, currency: 'USD' },
    });
    expect(plan.status).toBe(201);
    const declined = await stack.http('POST', '/v1/subscription', {
      key: caller.key,
      body: {
        merchantCode: caller.merchantCode,
        planId: plan.body.id,
        customerEmail: 'ada@example.com',
        card: cardData('4000000000009995'),
      },
    });
    expect(declined.body.error).toMatchObject({ code: 'PAYMENT_DECLINED', refusalCode: { reasonCode: '51' } });
    expectDocumented('POST', '/v1/subscription', declined);
  });

  it('answered a wide range of codes across the routes (the sweeps above are not vacuous)', () => {
    const codes = new Set([...answered.values()].flatMap((s) => [...s]));
    const expected = [
      'AMOUNT_EXCEEDS_AVAILABLE',
      'AUTH_INSUFFICIENT_SCOPE',
      'AUTH_INVALID',
      'AUTH_MISSING',
      'MERCHANT_MISMATCH',
      'NOT_FOUND',
      'PAYMENT_DECLINED',
      'UNSUPPORTED_MEDIA_TYPE',
      'VALIDATION_FAILED',
    ];
    expect({ missing: expected.filter((c) => !codes.has(c)), routes: answered.size }).toEqual({
      missing: [],
      routes: expect.any(Number),
    });
    expect(answered.size).toBeGreaterThan(50);
  });
});
