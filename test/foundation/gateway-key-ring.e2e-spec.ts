import { randomBytes, randomUUID } from 'node:crypto';
import { ADMIN_TOKEN, TestStack } from '../support/stack';

jest.setTimeout(60_000);

const KEYS = `k1:${randomBytes(32).toString('base64')}`;
const OTHER_KEYS = `k1:${randomBytes(32).toString('base64')}`;

/**
 * The gateway's key ring is GATEWAY_SECRET_KEYS; its former name WEBHOOK_SECRET_KEYS is still read (with a
 * warning) when the new one is unset. A replayed admin answer that shows a key is stored sealed with the ring,
 * so a replay after a restart under the other name opens only if both names gave the same keys.
 */
describe("the gateway's key ring under its new and its former name", () => {
  let stack: TestStack;
  let merchantCode: string;

  beforeAll(async () => {
    stack = await TestStack.start({ services: [], gateway: false });
    await stack.startGateway({ WEBHOOK_SECRET_KEYS: KEYS });
    merchantCode = await stack.merchant();
  });
  afterAll(async () => stack?.stop());

  const createKey = (idempotencyKey: string) =>
    stack.http('POST', '/v1/admin/keys', {
      port: 'internal',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'idempotency-key': idempotencyKey },
      body: { merchantCodes: [merchantCode], type: 'private', environment: 'sandbox' },
    });

  const warnings = () =>
    stack
      .log('gateway')
      .json()
      .filter((l) => l.level === 40)
      .map((l) => String(l.msg));

  it('reads the former name, warns that it is deprecated, and replays under the new name after a restart', async () => {
    expect(warnings()).toContainEqual(expect.stringMatching(/^WEBHOOK_SECRET_KEYS is deprecated for the gateway/));
    const idempotencyKey = randomUUID();
    const first = await createKey(idempotencyKey);
    expect(first.status).toBe(201);
    expect(first.body.key).toMatch(/^prv_sandbox_/);

    await stack.stopGateway();
    stack.log('gateway').lines.length = 0;
    await stack.startGateway({ GATEWAY_SECRET_KEYS: KEYS });
    expect(warnings().filter((w) => w.includes('SECRET_KEYS'))).toEqual([]);
    const replay = await createKey(idempotencyKey);
    expect(replay.status).toBe(201);
    expect(replay.body.key).toBe(first.body.key);
  });

  it('does not open the stored answer with other keys: the ring the gateway reads is the one given', async () => {
    const idempotencyKey = randomUUID();
    expect((await createKey(idempotencyKey)).status).toBe(201);
    await stack.stopGateway();
    await stack.startGateway({ GATEWAY_SECRET_KEYS: OTHER_KEYS });
    const replay = await createKey(idempotencyKey);
    expect(replay.status).toBeGreaterThanOrEqual(400);
    expect(replay.body.key).toBeUndefined();
  });
});
