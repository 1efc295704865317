import { randomUUID } from 'node:crypto';
import { parseIgnoredFieldsHeader } from '../../apps/gateway/src/http/ignored-fields-header';
import { paymentBody } from '../payments/payments-fixtures';
import { ApiOperation } from '../support/openapi-routes';
import { HttpResult, TestStack } from '../support/stack';
import { RouteCaller } from './route-caller';

/** Unknown field names an attacker or a careless client sends; none may reach a header raw. */
const HOSTILE = [
  'ctl\u0001\n\r\t\u007f',
  'x\r\nSet-Cookie: a=b',
  '"quoted"',
  'it\'s, "this"',
  "😀 :@' -}%/",
  'é漢字',
  'x'.repeat(10_000),
  ...Array.from({ length: 3000 }, (_, i) => `k${i}`),
];

const withHostile = (body: Record<string, unknown> = {}) => ({
  ...Object.fromEntries(HOSTILE.map((n) => [n, 1])),
  ...body,
});
const hostileQuery = HOSTILE.map((n) => `${encodeURIComponent(n)}=1`).join('&');

describe('X-Ignored-Fields under hostile field names', () => {
  let caller: RouteCaller;
  let stack: TestStack;
  let operations: ApiOperation[];
  let merchantCode: string;
  let key: string;

  beforeAll(async () => {
    caller = await RouteCaller.start();
    ({ stack, key, merchantCode } = caller);
    operations = caller.operations.filter((o) => o.body || o.query.length);
  });
  afterAll(() => stack.stop());

  /** The answer is a 2xx, or a 4xx in the error envelope; the header lists only names that were sent. */
  function expectSafe(label: string, r: HttpResult, mustName: boolean): void {
    const where = `${label} → ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`;
    expect({ where, ok: r.status < 500 }).toEqual({ where, ok: true });
    if (r.status >= 400) expect(r.body.error).toMatchObject({ status: r.status, code: expect.any(String) });
    const header = r.headers.get('x-ignored-fields');
    if (!mustName && header === null) return;
    expect({ where, header: typeof header }).toEqual({ where, header: 'string' });
    expect(header).toMatch(/^[\x20-\x7e]*$/);
    expect(header!.length).toBeLessThanOrEqual(1024);
    const { names, omitted } = parseIgnoredFieldsHeader(header!);
    for (const name of names) expect(HOSTILE).toContain(name);
    expect(names.length + omitted).toBe(HOSTILE.length);
  }

  it('derives its routes from /openapi.json, keyless ones included', () => {
    const paths = operations.map((o) => `${o.method} ${o.path}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        'POST /v1/payment/purchase',
        'POST /v1/payment/resume',
        'POST /v1/checkout/{id}/pay',
        'POST /v1/checkout/{id}/resume',
        'POST /v1/3ds/challenge/{sessionId}',
        'GET /v1/payment',
      ]),
    );
  });

  it('every route answers 2xx or a 4xx envelope and names the fields, encoded, in the body and the query', async () => {
    for (const o of operations) {
      const r = await stack.http(o.method, `${caller.pathOf(o)}?${hostileQuery}`, {
        port: o.port,
        ...caller.auth(o),
        body: o.body ? withHostile() : undefined,
      });
      expectSafe(`${o.method} ${o.path}`, r, !!o.body);
    }
  });

  it('a committed purchase answers 200 with the header, and so does every replay of its key', async () => {
    const body = withHostile(paymentBody(merchantCode));
    const headers = { 'idempotency-key': randomUUID() };
    for (let i = 0; i < 2; i++) {
      const r = await stack.http('POST', `/v1/payment/purchase?${hostileQuery}`, { key, body, headers });
      expect(r.status).toBe(200);
      expect(r.body.status).toBe('captured');
      expectSafe('purchase', r, true);
    }
  });

  it('a created link answers 201 with the header', async () => {
    const body = withHostile({ amount: { currency: 'USD', value: 100, exponent: 2 }, title: 'T' });
    const r = await stack.http('POST', `/v1/payment-link?${hostileQuery}`, { key, body });
    expect(r.status).toBe(201);
    expectSafe('link', r, true);
  });
});
