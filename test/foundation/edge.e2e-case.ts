import { TestStack } from '../support/stack';

describe('the gateway edge: error envelope, ignored fields, request ids, docs', () => {
  let stack: TestStack;
  let key: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    key = (await stack.key([await stack.merchant()])).key;
  });
  afterAll(() => stack.stop());

  const expectEnvelope = (r: { status: number; headers: Headers; body: any }, status: number, code: string) => {
    expect(r.status).toBe(status);
    expect(r.body.error).toMatchObject({ status, code, message: expect.any(String) });
    expect(r.body.error.requestId).toBe(r.headers.get('x-request-id'));
  };

  it('unknown route → 404 NOT_FOUND in the envelope', async () => {
    expectEnvelope(await stack.http('GET', '/v1/nope', { key }), 404, 'NOT_FOUND');
    expectEnvelope(await stack.http('DELETE', '/v1/ping', { key }), 404, 'NOT_FOUND');
  });

  it('malformed JSON → 400 VALIDATION_FAILED', async () => {
    const r = await stack.http('POST', '/v1/admin/merchants', {
      port: 'internal',
      key: 'test-admin-token',
      rawBody: '{"merchantCode": "x",',
    });
    expectEnvelope(r, 400, 'VALIDATION_FAILED');
  });

  it('wrong types and missing fields → 400 naming the field', async () => {
    const wrong = await stack.admin('POST', '/merchants', { merchantCode: 42, name: 'x' });
    expectEnvelope(wrong, 400, 'VALIDATION_FAILED');
    expect(wrong.body.error.param).toBe('merchantCode');
    const missing = await stack.admin('POST', '/keys', { merchantCodes: ['a'], type: 'private' });
    expectEnvelope(missing, 400, 'VALIDATION_FAILED');
    expect(missing.body.error.param).toBe('environment');
    const badEnum = await stack.http('GET', '/v1/ping?service=nope', { key });
    expect(badEnum.body.error).toMatchObject({ code: 'VALIDATION_FAILED', param: 'service' });
  });

  it('a body over 1 MiB → 413 PAYLOAD_TOO_LARGE', async () => {
    const r = await stack.admin('POST', '/merchants', { merchantCode: 'big', name: 'x'.repeat(1024 * 1024 + 10) });
    expectEnvelope(r, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('a body just under 1 MiB is read (and then validated)', async () => {
    const r = await stack.admin('POST', '/merchants', { merchantCode: 'almost', name: 'x'.repeat(1024 * 1000) });
    expectEnvelope(r, 400, 'VALIDATION_FAILED');
    expect(r.body.error.param).toBe('name');
  });

  it('unknown fields are ignored and named in X-Ignored-Fields', async () => {
    const code = `m${Date.now()}`;
    const r = await stack.admin('POST', '/merchants', {
      merchantCode: code,
      name: 'N',
      browserInfo: { a: 1 },
      colour: 'red',
    });
    expect(r.status).toBe(201);
    expect(r.body).not.toHaveProperty('browserInfo');
    expect(r.headers.get('x-ignored-fields')).toBe('browserInfo, colour');
    const clean = await stack.admin('POST', '/merchants', { merchantCode: `${code}b`, name: 'N' });
    expect(clean.headers.get('x-ignored-fields')).toBeNull();
  });

  it('X-Ignored-Fields is sent on error answers too', async () => {
    const r = await stack.admin('POST', '/keys', {
      merchantCodes: ['nobody'],
      type: 'private',
      environment: 'sandbox',
      extra: 1,
    });
    expect(r.status).toBe(404);
    expect(r.headers.get('x-ignored-fields')).toBe('extra');
  });

  it('echoes a sane X-Request-Id and generates one otherwise', async () => {
    const echoed = await stack.http('GET', '/v1/ping', { key, headers: { 'x-request-id': 'client-req-42' } });
    expect(echoed.headers.get('x-request-id')).toBe('client-req-42');
    const generated = await stack.http('GET', '/v1/ping', { key, headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('carries the request id over NATS into the service log', async () => {
    const requestId = `trace-${Date.now()}`;
    const r = await stack.http('GET', '/v1/ping', { key, headers: { 'x-request-id': requestId } });
    expect(r.status).toBe(200);
    const line = stack
      .log('payments')
      .json()
      .find((l) => l.requestId === requestId);
    expect(line).toMatchObject({ app: 'payments', msg: 'ping', requestId });
    expect(
      stack
        .log('gateway')
        .json()
        .some((l) => l.requestId === requestId && l.msg === 'request'),
    ).toBe(true);
  });

  it('never logs the key', async () => {
    await stack.http('GET', `/v1/ping?access_token=${key}`, { key });
    for (const app of ['gateway', 'payments']) expect(stack.log(app).text()).not.toContain(key);
  });

  it('serves the OpenAPI document and the docs page', async () => {
    const doc = await stack.http('GET', '/openapi.json', { port: 'internal' });
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/v1/ping', '/v1/admin/keys']));
    const page = await fetch(`${stack.url}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger');
  });

  it('exposes health and Prometheus metrics by route and status', async () => {
    expect((await stack.http('GET', '/health/live')).status).toBe(200);
    const ready = await stack.http('GET', '/health/ready');
    expect(ready.body).toEqual({ status: 'ok', checks: { database: 'ok', nats: 'ok' } });
    await stack.http('GET', '/v1/ping', { key });
    const metrics = await (await fetch(`${stack.adminUrl}/metrics`)).text();
    expect(metrics).toMatch(/requests_total\{[^}]*method="GET"[^}]*route="\/v1\/ping"[^}]*status="200"/);
    expect(metrics).toMatch(/request_duration_seconds_bucket\{[^}]*route="\/v1\/ping"/);
  });
});
