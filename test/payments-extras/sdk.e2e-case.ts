import { ManualClock } from '@app/clock';
import { TestStack } from '../support/stack';

const CARD = {
  cardNumber: '4111111111111111',
  expiryMonth: '12',
  expiryYear: '2031',
  cvv: '123',
  cardholderName: 'Jane',
};
const MINUTE = 60_000;

function jwtParts(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [h, p] = token.split('.');
  const decode = (s: string) => JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Record<string, unknown>;
  return { header: decode(h), payload: decode(p) };
}

describe('SDK client tokens and card nonces', () => {
  let stack: TestStack;
  let m: string;
  let key: { id: string; key: string };
  const clock = new ManualClock(new Date('2030-03-10T12:00:00.000Z'));

  beforeAll(async () => {
    stack = await TestStack.start({
      gateway: false,
      clock,
      env: { SDK_TOKEN_SECRET: 'test-sdk-secret-0123456789abcdef' },
    });
    await stack.startGateway({}, clock);
    m = await stack.merchant();
    key = await stack.key([m]);
  });
  afterAll(() => stack.stop());

  const session = async (body: Record<string, unknown> = {}, k = key.key) =>
    stack.http('POST', '/v1/sdk/session', { key: k, body });
  const clientToken = async (): Promise<string> => (await session()).body.clientToken;
  const nonce = (token: string | undefined, body: unknown = { cardData: CARD }) =>
    stack.http('POST', '/v1/sdk/nonce', { key: token, body });

  it('mints a 30-minute HS256 client token naming merchant, environment, minting key and checkout', async () => {
    const checkoutConfigId = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
    const r = await session({
      country: 'BR',
      currency: 'BRL',
      amount: { currency: 'BRL', value: 1050, exponent: 2 },
      customerId: 'c-1',
      checkoutConfigId,
    });
    expect(r.status).toBe(200);
    expect(r.body.expiresAt).toBe('2030-03-10T12:30:00.000Z');
    const { header, payload } = jwtParts(r.body.clientToken);
    expect(header).toMatchObject({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toMatchObject({
      merchantCode: m,
      environment: 'sandbox',
      keyId: key.id,
      checkout: {
        country: 'BR',
        currency: 'BRL',
        amount: { currency: 'BRL', value: 1050, exponent: 2 },
        customerId: 'c-1',
        checkoutConfigId,
      },
    });
    expect(payload.exp).toBe(Date.parse('2030-03-10T12:30:00Z') / 1000);
  });

  it('session: private key only, and its fields are validated', async () => {
    expect((await stack.http('POST', '/v1/sdk/session', { body: {} })).body.error.code).toBe('AUTH_MISSING');
    const pub = await stack.key([m], 'public');
    const p = await session({}, pub.key);
    expect([p.status, p.body.error.code]).toEqual([403, 'AUTH_INSUFFICIENT_SCOPE']);
    const bad = await session({ country: 'XX' });
    expect([bad.status, bad.body.error.code, bad.body.error.param]).toEqual([400, 'VALIDATION_FAILED', 'country']);
    const badAmount = await session({ amount: { currency: 'USD', value: 1.5, exponent: 2 } });
    expect(badAmount.body.error.param).toBe('amount.value');
  });

  it('nonce: a client token turns a card into a single-use nonce valid 15 minutes', async () => {
    const r = await nonce(await clientToken());
    expect(r.status).toBe(201);
    expect(r.body.nonce).toMatch(/^nonce_[A-Za-z0-9]{32}$/);
    expect(r.body.expiresAt).toBe(new Date(clock.now().getTime() + 15 * MINUTE).toISOString());
    expect(JSON.stringify(r.body)).not.toContain(CARD.cardNumber);
  });

  it('nonce: Luhn-invalid numbers and past expiries are 400 naming the field', async () => {
    const token = await clientToken();
    const luhn = await nonce(token, { cardData: { ...CARD, cardNumber: '4111111111111112' } });
    expect([luhn.status, luhn.body.error.param]).toEqual([400, 'cardData.cardNumber']);
    const past = await nonce(token, { cardData: { ...CARD, expiryMonth: '02', expiryYear: '2030' } });
    expect([past.status, past.body.error.param]).toEqual([400, 'cardData.expiryYear']);
    const missing = await nonce(token, {});
    expect([missing.status, missing.body.error.param]).toEqual([400, 'cardData']);
  });

  it('nonce: API keys are 403 (valid) or 401 (unknown); bad tokens 401', async () => {
    const prv = await nonce(key.key);
    expect([prv.status, prv.body.error.code]).toEqual([403, 'AUTH_INSUFFICIENT_SCOPE']);
    const pub = await nonce((await stack.key([m], 'public')).key);
    expect([pub.status, pub.body.error.code]).toEqual([403, 'AUTH_INSUFFICIENT_SCOPE']);
    const unknown = await nonce('prv_sandbox_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect([unknown.status, unknown.body.error.code]).toEqual([401, 'AUTH_INVALID']);
    expect((await nonce(undefined)).body.error.code).toBe('AUTH_MISSING');
    const token = await clientToken();
    const [h, p, s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...jwtParts(token).payload, merchantCode: 'someone-else' })).toString(
      'base64url',
    );
    for (const bad of [`${h}.${forged}.${s}`, `${h}.${p}.${s.slice(0, -2)}xx`, 'a.b.c']) {
      const r = await nonce(bad);
      expect([r.status, r.body.error.code]).toEqual([401, 'AUTH_INVALID']);
    }
  });

  it('a client token on a server route is 403 AUTH_INSUFFICIENT_SCOPE; a forged one stays 401', async () => {
    const token = await clientToken();
    const ping = await stack.http('GET', '/v1/ping', { key: token });
    expect([ping.status, ping.body.error.code]).toEqual([403, 'AUTH_INSUFFICIENT_SCOPE']);
    const again = await session({}, token);
    expect([again.status, again.body.error.code]).toEqual([403, 'AUTH_INSUFFICIENT_SCOPE']);
    const forged = await stack.http('GET', '/v1/ping', { key: `${token.slice(0, -3)}abc` });
    expect([forged.status, forged.body.error.code]).toEqual([401, 'AUTH_INVALID']);
  });

  it('a client token expires after 30 minutes on the clock', async () => {
    const token = await clientToken();
    clock.advance(29 * MINUTE);
    expect((await nonce(token)).status).toBe(201);
    clock.advance(MINUTE);
    const r = await nonce(token);
    expect([r.status, r.body.error.code]).toEqual([401, 'AUTH_INVALID']);
    // Expired, it is no longer a credential at all: a server route answers 401, not 403.
    expect((await stack.http('GET', '/v1/ping', { key: token })).status).toBe(401);
  });

  it('revoking the minting key ends its client tokens', async () => {
    const other = await stack.key([m]);
    const token = (await session({}, other.key)).body.clientToken;
    expect((await nonce(token)).status).toBe(201);
    expect((await stack.admin('DELETE', `/keys/${other.id}`)).status).toBe(200);
    const r = await nonce(token);
    expect([r.status, r.body.error.code]).toEqual([401, 'AUTH_INVALID']);
  });

  it('a production client token makes production nonces; body merchantCode cannot redirect it', async () => {
    const other = await stack.merchant();
    const prod = await stack.key([m], 'private', 'production');
    const token = (await session({}, prod.key)).body.clientToken;
    expect(jwtParts(token).payload.environment).toBe('production');
    const r = await nonce(token, { cardData: CARD, merchantCode: other });
    expect(r.status).toBe(201);
    expect(r.headers.get('x-ignored-fields')).toBe('merchantCode');
  });

  it('never logs the card or the tokens', async () => {
    const token = await clientToken();
    const n = (await nonce(token)).body.nonce as string;
    for (const app of ['gateway', 'payments']) {
      const text = stack.log(app).text();
      expect(text).not.toContain(CARD.cardNumber);
      expect(text).not.toContain(token);
      expect(text).not.toContain(n);
    }
  });
});
