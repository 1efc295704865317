import { TestStack } from '../support/stack';

describe('authentication and merchant scoping (gateway → NATS → payments)', () => {
  let stack: TestStack;
  let m1: string;
  let m2: string;
  let key: string;
  let multiKey: string;

  beforeAll(async () => {
    stack = await TestStack.start({ env: { KEY_CACHE_TTL_MS: '1000' } });
    m1 = await stack.merchant();
    m2 = await stack.merchant();
    key = (await stack.key([m1])).key;
    multiKey = (await stack.key([m1, m2])).key;
  });
  afterAll(() => stack.stop());

  const ping = (o: Parameters<TestStack['http']>[2] = {}, query = '') => stack.http('GET', `/v1/ping${query}`, o);

  it('a private key reaches the service with its merchant and environment', async () => {
    const r = await ping({ key });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ service: 'payments', merchantCode: m1, environment: 'sandbox' });
    expect(r.body.requestId).toBe(r.headers.get('x-request-id'));
  });

  it.each([
    ['no header', {}],
    ['an empty header', { authorization: '' }],
    ['Bearer with nothing after it', { authorization: 'Bearer ' }],
  ])('401 AUTH_MISSING for %s', async (_, headers) => {
    const r = await ping({ headers });
    expect(r.status).toBe(401);
    expect(r.body.error).toMatchObject({ status: 401, code: 'AUTH_MISSING' });
  });

  it.each([
    ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['a malformed key', { authorization: 'Bearer not-a-key' }],
    ['an unknown key', { authorization: 'Bearer prv_sandbox_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
  ])('401 AUTH_INVALID for %s', async (_, headers) => {
    const r = await ping({ headers });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('AUTH_INVALID');
  });

  it('never accepts a key in the query string or the body', async () => {
    const q = await ping({}, `?access_token=${key}`);
    expect(q.status).toBe(401);
    expect(q.body.error.code).toBe('AUTH_MISSING');
    const b = await stack.http('POST', '/v1/ping', { body: { access_token: key } });
    expect([401, 404]).toContain(b.status);
    expect(b.body.error.code).not.toBe(undefined);
    expect(b.status).not.toBe(200);
  });

  it('403 AUTH_INSUFFICIENT_SCOPE for a public key on a server route', async () => {
    const pub = (await stack.key([m1], 'public')).key;
    expect(pub.startsWith('pub_sandbox_')).toBe(true);
    const r = await ping({ key: pub });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('AUTH_INSUFFICIENT_SCOPE');
  });

  it('the key prefix selects the environment', async () => {
    const prod = (await stack.key([m1], 'private', 'production')).key;
    expect(prod.startsWith('prv_production_')).toBe(true);
    const r = await ping({ key: prod });
    expect(r.body).toMatchObject({ merchantCode: m1, environment: 'production' });
  });

  it('a multi-merchant key needs merchantCode, and it must be one of its merchants', async () => {
    const without = await ping({ key: multiKey });
    expect(without.status).toBe(400);
    expect(without.body.error).toMatchObject({ code: 'MERCHANT_CODE_REQUIRED', param: 'merchantCode' });
    const withIt = await ping({ key: multiKey }, `?merchantCode=${m2}`);
    expect(withIt.status).toBe(200);
    expect(withIt.body.merchantCode).toBe(m2);
    const other = await stack.merchant();
    const mismatch = await ping({ key: multiKey }, `?merchantCode=${other}`);
    expect(mismatch.status).toBe(403);
    expect(mismatch.body.error.code).toBe('MERCHANT_MISMATCH');
    const single = await ping({ key }, `?merchantCode=${m2}`);
    expect(single.status).toBe(403);
    expect(single.body.error.code).toBe('MERCHANT_MISMATCH');
  });

  it('a revoked key answers 401 AUTH_INVALID at once on this replica', async () => {
    const k = await stack.key([m1]);
    expect((await ping({ key: k.key })).status).toBe(200);
    const revoked = await stack.admin('DELETE', `/keys/${k.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    const r = await ping({ key: k.key });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('AUTH_INVALID');
  });

  it('keys are stored only as hashes', async () => {
    const k = await stack.key([m1]);
    const { Client } = await import('pg');
    const pg = new Client({ connectionString: stack.env.GATEWAY_DATABASE_URL });
    await pg.connect();
    const dump = await pg.query('SELECT row_to_json(k)::text AS row FROM api_keys k');
    await pg.end();
    const all = dump.rows.map((r) => r.row).join('\n');
    expect(all).toContain(k.id);
    expect(all).not.toContain(k.key);
    expect(all).not.toContain(k.key.slice(12));
  });
});
