import { ADMIN_TOKEN, TestStack } from '../support/stack';

/** The admin API, /metrics and the full API description answer on the internal port only. */
describe('the gateway internal port', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start();
  });
  afterAll(() => stack.stop());

  const admin = { key: ADMIN_TOKEN };

  it('the public port answers the admin API and /metrics like routes that do not exist', async () => {
    const unknown = await stack.http('GET', '/v1/nope', admin);
    for (const [method, path, body] of [
      ['GET', '/v1/admin/merchants', undefined],
      ['GET', '/v1/admin/merchants?limit=1', undefined],
      ['POST', '/v1/admin/merchants', { merchantCode: 'pubport', name: 'Public port' }],
      ['POST', '/v1/admin/keys', { merchantCodes: ['pubport'], type: 'private', environment: 'sandbox' }],
      ['GET', '/metrics', undefined],
    ] as const) {
      const r = await stack.http(method, path, { ...admin, body, port: 'public' });
      expect({ path, status: r.status }).toEqual({ path, status: 404 });
      expect(r.body.error).toMatchObject({
        status: 404,
        code: 'NOT_FOUND',
        message: `Cannot ${method} ${path.split('?')[0]}`,
      });
      expect(Object.keys(r.body.error).sort()).toEqual(Object.keys(unknown.body.error).sort());
    }
    // Nothing was created through the public port.
    const merchants = await stack.admin('GET', '/merchants?limit=100');
    expect(merchants.status).toBe(200);
    expect(JSON.stringify(merchants.body)).not.toContain('pubport');
  });

  it('the internal port serves the admin API and /metrics', async () => {
    const created = await stack.http('POST', '/v1/admin/merchants', {
      ...admin,
      body: { merchantCode: 'intport', name: 'Internal port' },
      port: 'internal',
    });
    expect(created.status).toBe(201);
    const metrics = await fetch(`${stack.adminUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^requests_total\{/m);
    expect((await fetch(`${stack.adminUrl}/health/ready`)).status).toBe(200);
  });

  it('the public API description leaves out the admin and sandbox routes; the internal one has them all', async () => {
    const pub = await stack.http('GET', '/openapi.json', { port: 'public' });
    const all = await stack.http('GET', '/openapi.json', { port: 'internal' });
    const pubPaths = Object.keys(pub.body.paths);
    const allPaths = Object.keys(all.body.paths);
    expect(pubPaths).toContain('/v1/payment/purchase');
    expect(pubPaths.filter((p) => /^\/v1\/(admin|sandbox)\//.test(p))).toEqual([]);
    expect(allPaths).toEqual(expect.arrayContaining(['/v1/admin/merchants', '/v1/sandbox/clock/advance']));
    expect(allPaths.filter((p) => !pubPaths.includes(p)).every((p) => /^\/v1\/(admin|sandbox)\//.test(p))).toBe(true);
    // The docs page of the public port is built from the public document too.
    const init = await (await fetch(`${stack.url}/docs/swagger-ui-init.js`)).text();
    expect(init).toContain('/v1/payment/purchase');
    expect(init).not.toContain('/v1/admin/merchants');
  });

  it('the merchant API and the sandbox routes stay on the public port', async () => {
    const code = await stack.merchant();
    const { key } = await stack.key([code]);
    expect((await stack.http('GET', '/v1/ping', { key, port: 'public' })).status).toBe(200);
    const clock = await stack.http('GET', '/v1/sandbox/clock', { key, port: 'public' });
    expect(clock.status).not.toBe(404);
  });
});
