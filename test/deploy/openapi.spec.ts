import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { operationIdOf, withoutInternalOperations } from '../../apps/gateway/src/http/openapi-tidy';

const ROOT = join(__dirname, '../..');
const committed = () => JSON.parse(readFileSync(join(ROOT, 'clients/typescript/openapi.json'), 'utf8'));

describe('the committed OpenAPI document and client types', () => {
  it('are what the gateway routes generate now (node scripts/openapi.js regenerates them)', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'scripts/openapi.js'), '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  }, 240_000);

  it('declares every security scheme it uses, and the nonce route takes a client token', () => {
    const doc = committed();
    const declared = Object.keys(doc.components.securitySchemes).sort();
    expect(declared).toEqual(['adminToken', 'clientToken', 'dashboardSession', 'privateKey']);
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        expect({ path, method, security: Array.isArray(op.security) }).toEqual({ path, method, security: true });
        for (const requirement of op.security)
          for (const name of Object.keys(requirement)) {
            expect(declared).toContain(name);
          }
      }
    }
    expect(doc.paths['/v1/sdk/nonce'].post.security).toEqual([{ clientToken: [] }]);
    expect(doc.paths['/v1/payment/purchase'].post.security).toEqual([{ privateKey: [] }]);
  });

  it('names operations readably and uniquely', () => {
    const doc = committed();
    const ids = Object.values<Record<string, any>>(doc.paths).flatMap((item) =>
      Object.values<any>(item).map((op) => op.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]*$/);
    expect(doc.paths['/v1/payment/purchase'].post.operationId).toBe('paymentsPurchase');
    expect(doc.paths['/v1/payment/{id}/refund'].post.operationId).toBe('paymentsRefund');
    expect(doc.paths['/v1/subscription/plan'].get.operationId).toBe('plansList');
    expect(operationIdOf('PingController', 'ping')).toBe('ping');
    expect(operationIdOf('DunningController', 'retryPayment')).toBe('subscriptionsRetryPayment');
  });

  it('marks admin, hosted-page and HTML routes internal, and the merchant document leaves them out', () => {
    const doc = committed();
    expect(doc.paths['/v1/admin/keys'].post['x-internal']).toBe(true);
    expect(doc.paths['/checkout/{id}'].get['x-internal']).toBe(true);
    expect(doc.paths['/v1/3ds/challenge/{sessionId}'].get['x-internal']).toBe(true);
    expect(doc.paths['/v1/sdk/js'].get['x-internal']).toBe(true);
    expect(doc.paths['/v1/payment/purchase'].post['x-internal']).toBeUndefined();
    // A CSV export is read by merchant servers (finance jobs): in the client, not internal.
    expect(doc.paths['/v1/export/{kind}'].get['x-internal']).toBeUndefined();
    const paths = Object.keys(withoutInternalOperations(doc).paths);
    expect(paths).toEqual(expect.arrayContaining(['/v1/payment/purchase', '/v1/subscription', '/v1/payment-link']));
    expect(paths.filter((p) => /admin|checkout|\/v1\/3ds|apm|sdk\/js/.test(p))).toEqual([]);
  });

  it('keeps the sandbox routes in the merchant document and the client types, each for sandbox keys only', () => {
    const doc = withoutInternalOperations(committed());
    const sandbox = Object.entries<Record<string, any>>(doc.paths).filter(([p]) => p.startsWith('/v1/sandbox/'));
    expect(sandbox.map(([p]) => p).sort()).toEqual([
      '/v1/sandbox/3ds/{sessionId}',
      '/v1/sandbox/clock',
      '/v1/sandbox/clock/advance',
      '/v1/sandbox/payment/{id}/settle',
    ]);
    for (const [path, item] of sandbox) {
      for (const op of Object.values<any>(item)) {
        expect({ path, tags: op.tags, internal: op['x-internal'] }).toEqual({ path, tags: ['sandbox'] });
        expect(op.summary).toMatch(/\(sandbox keys only\)$/);
        expect(op.description).toMatch(
          /^\*\*Sandbox keys only\*\*: a production key gets 403 `AUTH_INSUFFICIENT_SCOPE`/,
        );
        expect(op.responses['403'].description).toContain('a production key: this route takes sandbox keys only');
      }
    }
    const types = readFileSync(join(ROOT, 'clients/typescript/src/generated/api.ts'), 'utf8');
    for (const id of ['sandboxPaymentsChallenge', 'sandboxPaymentsSettle', 'sandboxClockAdvance', 'sandboxClockNow']) {
      expect(types).toContain(`operations["${id}"]`);
    }
  });
});
