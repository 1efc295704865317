import { randomBytes, randomUUID } from 'node:crypto';
import { queryRows } from '../support/db';
import { ADMIN_TOKEN, TestStack } from '../support/stack';

jest.setTimeout(60_000);

const KEYS = `k1:${randomBytes(32).toString('base64')}`;
const OTHER_KEYS = `k1:${randomBytes(32).toString('base64')}`;

/**
 * The gateway's key ring is GATEWAY_SECRET_KEYS; its former name WEBHOOK_SECRET_KEYS is still read (with a
 * warning) when the new one is unset. The answer of an admin connection change is stored sealed with the ring
 * (it may name credentials), so its replay after a restart under the other name opens only with the same keys.
 */
describe("the gateway's key ring under its new and its former name", () => {
  let stack: TestStack;
  let merchantCode: string;

  beforeAll(async () => {
    stack = await TestStack.start({ gateway: false });
    await stack.startGateway({ WEBHOOK_SECRET_KEYS: KEYS });
    merchantCode = await stack.merchant();
  });
  afterAll(async () => stack?.stop());

  const upsertConnection = (idempotencyKey: string, connectionCode: string) =>
    stack.http('POST', `/v1/admin/merchants/${merchantCode}/connections`, {
      port: 'internal',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'idempotency-key': idempotencyKey },
      body: {
        connectionCode,
        connectionName: 'Simulator (key ring test)',
        acquirer: 'sandbox',
        environment: 'production',
        currencies: [],
        methods: [],
        priority: 1000,
        allowSimulator: true,
      },
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
    const first = await upsertConnection(idempotencyKey, 'first');
    expect(first.status).toBe(201);
    expect(first.body.connectionCode).toBe('first');
    // Stored sealed: the row holds no part of the answer in clear.
    const rows = await queryRows(
      stack.env.GATEWAY_DATABASE_URL,
      "SELECT response_body FROM idempotency_keys WHERE idempotency_key LIKE '%' || $1",
      [idempotencyKey],
    );
    expect(rows).toHaveLength(1);
    expect(Object.keys(rows[0].response_body)).toEqual(['sealed']);
    expect(JSON.stringify(rows[0])).not.toContain('key ring test');

    await stack.stopGateway();
    stack.log('gateway').lines.length = 0;
    await stack.startGateway({ GATEWAY_SECRET_KEYS: KEYS });
    expect(warnings().filter((w) => w.includes('SECRET_KEYS'))).toEqual([]);
    const replay = await upsertConnection(idempotencyKey, 'first');
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
  });

  it('does not open the stored answer with other keys: the ring the gateway reads is the one given', async () => {
    const idempotencyKey = randomUUID();
    const first = await upsertConnection(idempotencyKey, 'second');
    expect(first.status).toBe(201);
    await stack.stopGateway();
    await stack.startGateway({ GATEWAY_SECRET_KEYS: OTHER_KEYS });
    const replay = await upsertConnection(idempotencyKey, 'second');
    expect(replay.status).toBeGreaterThanOrEqual(400);
    expect(replay.body).not.toEqual(first.body);
  });
});
