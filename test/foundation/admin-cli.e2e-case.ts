import { INestApplication } from '@nestjs/common';
import { runCli } from '../../apps/gateway/src/cli';
import { gatewayAdminUrl, startGateway } from '../../apps/gateway/src/main';
import { LogCapture } from '../support/log-capture';
import { TestStack } from '../support/stack';

describe('admin API and CLI', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start({ env: { KEY_CACHE_TTL_MS: '5000' } });
  });
  afterAll(() => stack.stop());

  it('creates merchants; refuses duplicates, bad codes and bad admin tokens', async () => {
    const created = await stack.admin('POST', '/merchants', { merchantCode: 'acme', name: 'Acme' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ merchantCode: 'acme', name: 'Acme', id: expect.any(String) });
    const dup = await stack.admin('POST', '/merchants', { merchantCode: 'acme', name: 'Again' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('DUPLICATE_MERCHANT_CODE');
    const bad = await stack.admin('POST', '/merchants', { merchantCode: 'has space', name: 'x' });
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_FAILED', param: 'merchantCode' });
    const noToken = await stack.http('POST', '/v1/admin/merchants', {
      port: 'internal',
      body: { merchantCode: 'z', name: 'z' },
    });
    expect(noToken.body.error.code).toBe('AUTH_MISSING');
    const wrong = await stack.http('GET', '/v1/admin/merchants', { port: 'internal', key: 'not-the-token' });
    expect(wrong.body.error.code).toBe('AUTH_INVALID');
    const list = await stack.admin('GET', '/merchants');
    expect(list.body.map((m: { merchantCode: string }) => m.merchantCode)).toContain('acme');
    const other = await stack.admin('POST', '/merchants', { merchantCode: 'acme2', name: 'Acme 2' });
    expect(Number.isInteger(created.body.merchantId)).toBe(true);
    expect(other.body.merchantId).toBeGreaterThan(created.body.merchantId);
    expect(list.body.find((m: { merchantCode: string }) => m.merchantCode === 'acme').merchantId).toBe(
      created.body.merchantId,
    );
  });

  it('a merchant key is not an admin token', async () => {
    const { key } = await stack.key([await stack.merchant()]);
    const r = await stack.http('GET', '/v1/admin/merchants', { port: 'internal', key });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('AUTH_INVALID');
  });

  it('creates keys (shown once), lists them as hints, 404 for an unknown merchant, revokes', async () => {
    const m = await stack.merchant();
    const created = await stack.admin('POST', '/keys', {
      merchantCodes: [m],
      type: 'private',
      environment: 'production',
    });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^prv_production_[A-Za-z0-9]{32}$/);
    const listed = await stack.admin('GET', `/keys?merchantCode=${m}`);
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0]).toMatchObject({ id: created.body.id, merchantCodes: [m], revokedAt: null });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
    const unknown = await stack.admin('POST', '/keys', {
      merchantCodes: [m, 'ghost'],
      type: 'private',
      environment: 'sandbox',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'NOT_FOUND', param: 'merchantCodes' });
    expect((await stack.admin('DELETE', `/keys/${created.body.id}`)).status).toBe(200);
    expect((await stack.admin('DELETE', '/keys/00000000-0000-7000-8000-000000000000')).status).toBe(404);
    expect((await stack.admin('DELETE', '/keys/not-a-uuid')).status).toBe(404);
  });

  it('the CLI runs the same use cases', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const cli = (...argv: string[]) =>
      runCli(
        argv,
        stack.env,
        (l) => out.push(l),
        (l) => err.push(l),
      );
    expect(await cli('merchant:create', 'clico', 'CLI', 'Co')).toBe(0);
    expect(JSON.parse(out.pop()!)).toMatchObject({ merchantCode: 'clico', name: 'CLI Co' });
    expect(await cli('merchant:create', 'clico', 'Again')).toBe(2);
    expect(err.pop()).toMatch(/^DUPLICATE_MERCHANT_CODE/);
    expect(await cli('key:create', '--merchant', 'clico', '--type', 'private', '--env', 'sandbox')).toBe(0);
    const key = JSON.parse(out.pop()!);
    expect(key.key).toMatch(/^prv_sandbox_/);
    const ping = await stack.http('GET', '/v1/ping', { key: key.key });
    expect(ping.body.merchantCode).toBe('clico');
    expect(await cli('key:create', '--merchant', 'clico', '--env', 'staging')).toBe(2);
    expect(err.pop()).toMatch(/^VALIDATION_FAILED/);
    expect(await cli('key:list', '--merchant', 'clico')).toBe(0);
    expect(JSON.parse(out.pop()!)[0]).toMatchObject({ id: key.id, revokedAt: null });
    expect(await cli('key:revoke', key.id)).toBe(0);
    expect(JSON.parse(out.pop()!).revokedAt).toEqual(expect.any(String));
    // The gateway hears the CLI's revocation broadcast (or its cache expires within 5 s).
    const started = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - started < 6000) {
      status = (await stack.http('GET', '/v1/ping', { key: key.key })).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(401);
    expect(await cli('nonsense')).toBe(2);
  });

  it('the admin API is off without ADMIN_TOKEN', async () => {
    const off = await startGateway({ env: { ...stack.env, ADMIN_TOKEN: '' }, logDestination: new LogCapture() });
    try {
      const r = await fetch(`${gatewayAdminUrl(off)}/v1/admin/merchants`, {
        headers: { authorization: 'Bearer anything' },
      });
      expect(r.status).toBe(403);
      expect(((await r.json()) as any).error.code).toBe('AUTH_INSUFFICIENT_SCOPE');
    } finally {
      await off.close();
    }
  });
  // Last on purpose: passport keeps strategies in a process-wide registry, so after a second in-process gateway
  // closes, the first one's bearer strategy is gone. Separate processes (production) do not share it.
  it('a revocation is honoured by another gateway replica within 5 seconds', async () => {
    const m = await stack.merchant();
    const k = await stack.key([m]);
    const other: INestApplication = await startGateway({ env: stack.env, logDestination: new LogCapture() });
    try {
      const otherUrl = (await other.getUrl()).replace('[::1]', '127.0.0.1');
      const viaOther = () => fetch(`${otherUrl}/v1/ping`, { headers: { authorization: `Bearer ${k.key}` } });
      expect((await viaOther()).status).toBe(200); // now cached on the other replica
      await stack.admin('DELETE', `/keys/${k.id}`);
      const started = Date.now();
      let status = 200;
      while (status === 200 && Date.now() - started < 6000) {
        status = (await viaOther()).status;
        if (status === 200) await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe(401);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await other.close();
    }
  });
});
