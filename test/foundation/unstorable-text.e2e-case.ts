import { connect } from 'node:net';
import { fillPath } from '../support/openapi-routes';
import { TestStack } from '../support/stack';
import { RouteCaller } from './route-caller';
import { answerOf, textFields, TextFields } from './text-fields';

/** Text PostgreSQL cannot store: a NUL, and an unpaired UTF-16 surrogate (JSON's "\uD800"). */
const UNSTORABLE: Array<[string, string]> = [
  ['a NUL', 'a\u0000b'],
  ['an unpaired surrogate', 'a\uD800b'],
];

/** The answer of a raw HTTP/1.1 request, for what fetch refuses to send (a NUL in a header). */
function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer')));
  });
}

describe('text that cannot be stored, on every route: 400 VALIDATION_FAILED naming the field', () => {
  let caller: RouteCaller;
  let stack: TestStack;
  let fields: TextFields;

  beforeAll(async () => {
    caller = await RouteCaller.start();
    stack = caller.stack;
    fields = await textFields(caller);
  }, 120_000);
  afterAll(() => stack.stop());

  const refused = (r: { status: number; error?: any; param?: string }, param: string) =>
    r.status === 400 && r.error?.code === 'VALIDATION_FAILED' && r.param === param;

  it('finds the free-text fields, queries, metadata objects and path handles', () => {
    const found = new Set(fields.cases.map((c) => `${c.route} ${c.param}`));
    for (const expected of [
      'POST /v1/payment/purchase orderCode',
      'POST /v1/payment-link title',
      'POST /v1/subscription/plan name',
      'POST /v1/webhook-endpoint description',
      'POST /v1/payment/{id}/refund reference',
      'GET /v1/payment?orderCode orderCode',
      'GET /v1/subscription?customerEmail customerEmail',
    ]) {
      expect(found).toContain(expected);
    }
    expect(fields.metadata.map((m) => `${m.route} ${m.param}`)).toEqual(
      expect.arrayContaining([
        'POST /v1/payment/purchase metadata',
        'POST /v1/payment-link metadata',
        'POST /v1/subscription metadata',
      ]),
    );
  });

  it.each(UNSTORABLE)('%s in any free-text field of a body (an item of a list of strings too)', async (_, bad) => {
    const wrong: string[] = [];
    for (const c of fields.cases.filter((x) => x.where === 'body')) {
      const param = c.array ? `${c.param}.0` : c.param;
      const r = answerOf(await c.send(bad), param);
      if (!refused(r, param)) wrong.push(`${c.route} ${param}: ${r.status} ${JSON.stringify(r.error)}`);
    }
    expect(wrong).toEqual([]);
  });

  it.each(UNSTORABLE)('%s in a metadata value or key', async (_, bad) => {
    const wrong: string[] = [];
    for (const m of fields.metadata) {
      const value = answerOf(await m.send({ note: bad }), `${m.param}.note`);
      if (!refused(value, `${m.param}.note`)) wrong.push(`${m.route} ${m.param}.note: ${JSON.stringify(value)}`);
      const key = answerOf(await m.send({ [bad]: 'v' }), m.param);
      if (!refused(key, m.param)) wrong.push(`${m.route} ${m.param} key: ${JSON.stringify(key)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('a NUL in any query parameter (a surrogate has no form in a URL: its bytes stay undecoded text)', async () => {
    const wrong: string[] = [];
    const queries = fields.cases.filter((c) => c.where === 'query');
    expect(queries.length).toBeGreaterThan(20);
    for (const c of queries) {
      const r = answerOf(await c.send(UNSTORABLE[0][1]), c.param);
      if (!refused(r, c.param)) wrong.push(`${c.route}: ${r.status} ${JSON.stringify(r.error)}`);
    }
    expect(wrong).toEqual([]);
    const cesu = await stack.http('GET', '/v1/payment?orderCode=%ED%A0%80', { key: caller.key });
    expect(cesu.status).toBe(200);
  });

  it('a NUL in any path handle', async () => {
    const wrong: string[] = [];
    for (const o of caller.operations) {
      for (const [, name] of o.path.matchAll(/\{(\w+)\}/g)) {
        const path = fillPath(o.path, {
          id: o.path.startsWith('/v1/checkout/') ? caller.linkId : crypto.randomUUID(),
          merchantCode: caller.merchantCode,
          [name]: UNSTORABLE[0][1],
        });
        const r = await stack.http(o.method, path, { port: o.port, key: caller.credential(o) });
        if (!refused(answerOf(r, name), name)) wrong.push(`${o.method} ${o.path} ${name}: ${r.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a unicode escape of NUL in a JSON body is refused before any route reads it, keyless routes too', async () => {
    const r = await fetch(`${stack.url}/v1/payment/resume`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"sessionId": "ses_\\u0000"}',
    });
    expect(r.status).toBe(400);
    expect(((await r.json()) as any).error).toMatchObject({ code: 'VALIDATION_FAILED', param: 'sessionId' });
  });

  it('a NUL in a stored header (Idempotency-Key) never reaches a handler', async () => {
    const port = Number(new URL(stack.url).port);
    const body = '{}';
    const answer = await rawRequest(
      port,
      `POST /v1/payment/purchase HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${caller.key}\r\n` +
        `Content-Type: application/json\r\nIdempotency-Key: a\u0000b\r\nContent-Length: ${body.length}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  });

  it('nothing reached a handler as an unexpected error', () => {
    for (const app of ['gateway', 'payments', 'payment-links', 'billing']) {
      expect(stack.log(app).text()).not.toMatch(/Unexpected error|INTERNAL_ERROR/);
    }
  });
});
