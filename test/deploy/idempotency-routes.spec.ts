import { readFileSync } from 'node:fs';

const { DOCUMENT, OPENAPI, honouringRoutes, routesList, withList } = require('../../scripts/idempotency-routes.js') as {
  DOCUMENT: string;
  OPENAPI: string;
  honouringRoutes: (openapi: unknown) => Array<{ method: string; path: string }>;
  routesList: (openapi: unknown) => string;
  withList: (document: string, list: string) => string;
};

/** The committed OpenAPI document: test/deploy/openapi.spec.ts holds it to what the gateway's routes generate. */
const openapi = () => JSON.parse(readFileSync(OPENAPI, 'utf8'));

describe('docs/api.md: the routes that honour Idempotency-Key', () => {
  const committed = readFileSync(DOCUMENT, 'utf8');

  it('are the list scripts/idempotency-routes.js generates from the OpenAPI document', () => {
    expect(committed).toBe(withList(committed, routesList(openapi())));
  });

  it('include every route whose handler takes the key, the recovery policy PUT among them', () => {
    const routes = honouringRoutes(openapi()).map((r) => `${r.method} ${r.path}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'PUT /v1/subscription/recovery-policy',
        'POST /v1/payment/purchase',
        'POST /v1/admin/merchants/{merchantCode}/connections',
      ]),
    );
    for (const route of routes) expect(committed).toContain(`\`${route}\``);
    expect(routes).not.toContain('POST /v1/subscription/usage/batch');
  });

  it('keeps the text around the list when it rewrites it', () => {
    const document = 'before\n<!-- idempotency-routes:start -->\nstale\n<!-- idempotency-routes:end -->\nafter\n';
    expect(withList(document, 'fresh')).toBe(
      'before\n<!-- idempotency-routes:start -->\nfresh\n<!-- idempotency-routes:end -->\nafter\n',
    );
    expect(() => withList('no markers', 'fresh')).toThrow(/markers/);
  });
});
