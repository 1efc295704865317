import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADMIN_TOKEN, TestStack } from '../support/stack';

/** A request with its path exactly as written: fetch and URL would resolve `./`, `//` and some escapes first. */
function raw(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; requestId: unknown; body: any }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: res.statusCode ?? 0, requestId: res.headers['x-request-id'], body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The admin API, /metrics and the full API description are routes of the internal server only. */
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
        message: `Cannot ${method} ${path}`,
      });
      expect(Object.keys(r.body.error).sort()).toEqual(Object.keys(unknown.body.error).sort());
    }
    // Nothing was created through the public port.
    const merchants = await stack.admin('GET', '/merchants?limit=100');
    expect(merchants.status).toBe(200);
    expect(JSON.stringify(merchants.body)).not.toContain('pubport');
  });

  it('the public port has no admin route and no /metrics under any spelling of the path', async () => {
    const unknown = await stack.http('GET', '/v1/nope', admin);
    const spellings: Array<[string, string]> = [
      ['GET', '/%6detrics'],
      ['GET', '/%6Detrics'],
      ['GET', '//metrics'],
      ['GET', '/metrics/'],
      ['GET', '/%6d%65%74%72%69%63%73'],
      ['GET', '/v1/%61dmin/merchants'],
      ['POST', '/v1/%61dmin/merchants'],
      ['GET', '/v%31/admin/merchants'],
      ['POST', '/v%31/admin/merchants'],
      ['GET', '//v1/admin/merchants'],
      ['POST', '//v1/admin/merchants'],
      ['GET', '/v1//admin/merchants'],
      ['POST', '/v1//admin/merchants'],
      ['GET', '/V1/ADMIN/MERCHANTS'],
      ['POST', '/V1/ADMIN/MERCHANTS'],
      ['GET', '/v1/admin%2fmerchants'],
      ['POST', '/v1/admin%2fmerchants'],
      ['GET', '/v1/./admin/merchants'],
      ['POST', '/v1/./admin/merchants'],
      ['POST', '/v1/%61dmin/keys'],
    ];
    for (const [i, [method, path]] of spellings.entries()) {
      const body =
        method === 'POST' ? JSON.stringify({ merchantCode: `rawport${i}`, name: 'Raw public port' }) : undefined;
      const headers = {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      };
      const r = await raw(stack.url, method, path, headers, body);
      expect({ method, path, status: r.status }).toEqual({ method, path, status: 404 });
      expect({ method, path, error: r.body.error }).toEqual({
        method,
        path,
        error: expect.objectContaining({ status: 404, code: 'NOT_FOUND', requestId: r.requestId }),
      });
      expect(r.body.error.message).toMatch(new RegExp(`^Cannot ${method} /`));
      expect(Object.keys(r.body.error).sort()).toEqual(Object.keys(unknown.body.error).sort());
    }
    // The same request on the internal port is served: the spellings above reach a route only there.
    expect((await raw(stack.adminUrl, 'GET', '/metrics')).status).toBe(200);
    expect(
      (await raw(stack.adminUrl, 'GET', '/v1/admin/merchants', { authorization: `Bearer ${ADMIN_TOKEN}` })).status,
    ).toBe(200);
    const merchants = await stack.admin('GET', '/merchants?limit=100');
    expect(merchants.status).toBe(200);
    expect(JSON.stringify(merchants.body)).not.toContain('rawport');
  });

  it('both ports answer the health checks: the probes use the public one', async () => {
    for (const base of [stack.url, stack.adminUrl]) {
      expect((await raw(base, 'GET', '/health/live')).status).toBe(200);
      expect((await raw(base, 'GET', '/health/ready')).status).toBe(200);
    }
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

  it('the public API description has the sandbox routes but not the admin ones; the internal one has them all', async () => {
    const pub = await stack.http('GET', '/openapi.json', { port: 'public' });
    const all = await stack.http('GET', '/openapi.json', { port: 'internal' });
    const pubPaths = Object.keys(pub.body.paths);
    const allPaths = Object.keys(all.body.paths);
    expect(pubPaths).toContain('/v1/payment/purchase');
    expect(pubPaths.filter((p) => p.startsWith('/v1/admin/'))).toEqual([]);
    const sandboxPaths = [
      '/v1/sandbox/3ds/{sessionId}',
      '/v1/sandbox/clock',
      '/v1/sandbox/clock/advance',
      '/v1/sandbox/payment/{id}/settle',
    ];
    expect(pubPaths.filter((p) => p.startsWith('/v1/sandbox/')).sort()).toEqual(sandboxPaths);
    expect(allPaths).toEqual(expect.arrayContaining(['/v1/admin/merchants', ...sandboxPaths]));
    expect(allPaths.filter((p) => !pubPaths.includes(p)).every((p) => p.startsWith('/v1/admin/'))).toBe(true);
    // Each sandbox route says, on the public port, that it takes sandbox keys only and what a production key gets.
    for (const path of sandboxPaths) {
      for (const op of Object.values<any>(pub.body.paths[path])) {
        expect(op.tags).toEqual(['sandbox']);
        expect(op.description).toMatch(/^\*\*Sandbox keys only\*\*/);
        expect(op.responses['403'].description).toContain('a production key: this route takes sandbox keys only');
      }
    }
    // The docs page of the public port is built from the public document too.
    const init = await (await fetch(`${stack.url}/docs/swagger-ui-init.js`)).text();
    expect(init).toContain('/v1/payment/purchase');
    expect(init).toContain('/v1/sandbox/3ds/{sessionId}');
    expect(init).not.toContain('/v1/admin/merchants');
  });

  it('the merchant API and the sandbox routes stay on the public port', async () => {
    const code = await stack.merchant();
    const { key } = await stack.key([code]);
    expect((await stack.http('GET', '/v1/ping', { key, port: 'public' })).status).toBe(200);
    const clock = await stack.http('GET', '/v1/sandbox/clock', { key, port: 'public' });
    expect(clock.status).not.toBe(404);
    expect((await raw(stack.url, 'GET', '/v1/sdk/js')).status).toBe(200);
    expect((await raw(stack.url, 'GET', '/docs')).status).toBe(200);
    // The internal server has the operators' routes only.
    const onInternal = await stack.http('GET', '/v1/ping', { key, port: 'internal' });
    expect(onInternal.status).toBe(404);
  });

  // Last: a second gateway in this process takes over the passport strategy of the first, whose key checks
  // then fail once the second one is stopped (or failed to start).
  it('stopping a gateway closes its internal server with its public one', async () => {
    const second = await stack.startGateway();
    const { url, adminUrl } = stack;
    expect((await raw(adminUrl, 'GET', '/health/live')).status).toBe(200);
    await stack.stopGateway(second);
    await expect(raw(url, 'GET', '/health/live')).rejects.toThrow(/ECONNREFUSED/);
    await expect(raw(adminUrl, 'GET', '/health/live')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('a gateway whose internal port is taken does not start', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((taken.address() as AddressInfo).port);
      await expect(stack.startGateway({ ADMIN_PORT: port, ADMIN_HOST: '127.0.0.1' })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
