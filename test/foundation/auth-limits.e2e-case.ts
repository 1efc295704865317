import { expectError } from '../payments/payments-fixtures';
import { ADMIN_TOKEN, HttpResult, TestStack } from '../support/stack';

const FAILURES = 5;
const PER_SECOND = 3;

/** Failed authentications per client address, the per-key limit, and what a 429 tells the client. */
describe('limits on guessing credentials and on requests per key', () => {
  let stack: TestStack;
  let key: string;

  beforeAll(async () => {
    stack = await TestStack.start({
      env: { AUTH_FAILURES_PER_MINUTE: String(FAILURES), RATE_LIMIT_PER_SECOND: String(PER_SECOND) },
    });
    key = (await stack.key([await stack.merchant()])).key;
  });
  afterAll(() => stack.stop());

  const fakeKey = (i: number) => `prv_sandbox_${'Fake'.padEnd(28, String.fromCharCode(97 + (i % 26)))}${i}`;

  const expectRateLimitFields = (r: HttpResult, limit: number) => {
    expectError(r, 429, 'RATE_LIMITED');
    const reset = r.headers.get('ratelimit-reset');
    expect(Number(reset)).toBeGreaterThan(0);
    expect(r.headers.get('retry-after')).toBe(reset);
    expect(r.headers.get('ratelimit-limit')).toBe(String(limit));
    expect(r.headers.get('ratelimit-remaining')).toBe('0');
  };

  it('unknown keys from one address: refused with 429 before any lookup, once over the limit', async () => {
    const from = '127.0.0.11';
    for (let i = 0; i < FAILURES; i++) {
      expectError(await stack.http('GET', '/v1/ping', { key: fakeKey(i), from }), 401, 'AUTH_INVALID');
    }
    const over = await stack.http('GET', '/v1/ping', { key: fakeKey(99), from });
    expectRateLimitFields(over, FAILURES);
    expect(over.body.error.message).toMatch(/failed authentications/);
    // Even a valid key from that address waits: nothing is looked up for it until the window passes.
    expectRateLimitFields(await stack.http('GET', '/v1/ping', { key, from }), FAILURES);
    // Another address is not affected.
    expect((await stack.http('GET', '/v1/ping', { key, from: '127.0.0.12' })).status).toBe(200);
    const metrics = await (await fetch(`${stack.adminUrl}/metrics`)).text();
    expect(metrics).toMatch(/auth_attempts_blocked_total\{[^}]*\} [1-9]/);
  });

  it('the client-token guard and the admin guard count failures the same way', async () => {
    const sdkFrom = '127.0.0.13';
    for (let i = 0; i < FAILURES; i++) {
      expectError(
        await stack.http('POST', '/v1/sdk/nonce', { key: `junk.token.${i}`, body: {}, from: sdkFrom }),
        401,
        'AUTH_INVALID',
      );
    }
    expectRateLimitFields(
      await stack.http('POST', '/v1/sdk/nonce', { key: 'junk', body: {}, from: sdkFrom }),
      FAILURES,
    );

    const adminFrom = '127.0.0.14';
    for (let i = 0; i < FAILURES; i++) {
      expectError(
        await stack.http('GET', '/v1/admin/merchants', { port: 'internal', key: `guess-${i}`, from: adminFrom }),
        401,
        'AUTH_INVALID',
      );
    }
    expectRateLimitFields(
      await stack.http('GET', '/v1/admin/merchants', { port: 'internal', key: ADMIN_TOKEN, from: adminFrom }),
      FAILURES,
    );
    expect(
      (await stack.http('GET', '/v1/admin/merchants', { port: 'internal', key: ADMIN_TOKEN, from: '127.0.0.15' }))
        .status,
    ).toBe(200);
  });

  it('each listener counts its own failures: bad keys on the public port never lock out the admin API', async () => {
    const from = '127.0.0.18';
    for (let i = 0; i < FAILURES; i++) {
      expectError(await stack.http('GET', '/v1/ping', { key: fakeKey(i), from }), 401, 'AUTH_INVALID');
    }
    expectRateLimitFields(await stack.http('GET', '/v1/ping', { key: fakeKey(99), from }), FAILURES);
    const admin = await stack.http('GET', '/v1/admin/merchants', { port: 'internal', key: ADMIN_TOKEN, from });
    expect(admin.status).toBe(200);
    // And the other way round: bad admin tokens do not lock the address out of the public port.
    const other = '127.0.0.19';
    for (let i = 0; i < FAILURES; i++) {
      expectError(
        await stack.http('GET', '/v1/admin/merchants', { port: 'internal', key: `guess-${i}`, from: other }),
        401,
        'AUTH_INVALID',
      );
    }
    expect((await stack.http('GET', '/v1/ping', { key, from: other })).status).toBe(200);
  });

  it('successful authentications never count toward the failure limit', async () => {
    const from = '127.0.0.16';
    for (let i = 0; i < FAILURES * 2; i++) {
      expect(
        (await stack.http('GET', '/v1/admin/merchants', { port: 'internal', key: ADMIN_TOKEN, from })).status,
      ).toBe(200);
    }
  });

  it('the per-key limit answers 429 with Retry-After and the RateLimit fields', async () => {
    const answers = await Promise.all(
      Array.from({ length: PER_SECOND * 4 }, () => stack.http('GET', '/v1/ping', { key, from: '127.0.0.17' })),
    );
    const limited = answers.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    for (const r of limited) {
      expectRateLimitFields(r, PER_SECOND);
      expect(r.headers.get('retry-after')).toBe('1');
      expect(r.body.error.message).toBe('Too many requests for this key');
    }
  });

  it('the OpenAPI document lists 413 and 415 where a body is read and 429 where a credential is checked', async () => {
    const doc = (await stack.http('GET', '/openapi.json', { port: 'internal' })).body;
    let withBody = 0;
    let guarded = 0;
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        if (['post', 'put', 'patch', 'delete'].includes(method)) {
          withBody++;
          expect({ where, has: ['413', '415'].filter((c) => op.responses[c]) }).toEqual({ where, has: ['413', '415'] });
          expect(op.responses['413'].content['application/json'].schema.$ref).toMatch(/ErrorEnvelope$/);
        }
        if (op.security?.length) {
          guarded++;
          expect({ where, has429: Boolean(op.responses['429']) }).toEqual({ where, has429: true });
          expect(Object.keys(op.responses['429'].headers).sort()).toEqual([
            'RateLimit-Limit',
            'RateLimit-Remaining',
            'RateLimit-Reset',
            'Retry-After',
          ]);
        }
      }
    }
    expect(withBody).toBeGreaterThan(20);
    expect(guarded).toBeGreaterThan(20);
    // A route's own 429 description stays, with the headers added.
    const pay = doc.paths['/v1/checkout/{id}/pay'].post.responses['429'];
    expect(pay.description).toMatch(/declined payments/);
    expect(pay.headers['Retry-After']).toBeDefined();
  });
});
