import { randomBytes } from 'node:crypto';
import { WebhookSecretCipher } from '@app/cipher';
import { uuidv7 } from '@app/clock';
import { dropDatabase, migrateDatabase } from '@app/database';
import { gatewayMigrations } from '../../apps/gateway/src/migrations';
import { DropWebhookTables1768400000001 } from '../../apps/gateway/src/migrations/1768400000001-drop-webhook-tables';
import { migrate } from '../../apps/migrate/src/main';
import { copyWebhookData } from '../../apps/migrate/src/webhook-data';
import { migrations as webhooksMigrations } from '../../apps/webhooks/src/migrations';
import { queryRows } from '../support/db';
import { runState } from '../support/run-state';
import { TestStack } from '../support/stack';
import { WebhookReceiver, webhookStack } from '../support/webhook-receiver';
import { until } from '../support/wait';
import { signatureValid } from './emit';

jest.setTimeout(90_000);

const KEYS = `k7:${randomBytes(32).toString('base64')}`;
const cipher = WebhookSecretCipher.fromConfig({ WEBHOOK_SECRET_KEYS: KEYS });
const database = (name: string) =>
  `${runState().pgBase}/t_${runState().runId}_${name}_${randomBytes(3).toString('hex')}`;
/** The gateway's schema as it was before its webhook tables moved. */
const legacyMigrations = gatewayMigrations(cipher).filter((m) => m !== DropWebhookTables1768400000001);

/** A gateway database of the release before the webhooks service: a merchant with an endpoint, a log, an event. */
async function legacyGateway(url: string, receiverUrl: string) {
  await migrateDatabase({ app: 'gateway', url, migrations: legacyMigrations });
  const merchant = `mv${randomBytes(4).toString('hex')}`;
  const endpointId = uuidv7();
  const eventId = uuidv7();
  const deliveryId = uuidv7();
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const sealed = cipher.seal({ endpointId }, secret);
  const account = cipher.seal({ merchantCode: merchant, environment: 'sandbox' }, 'whsec_account_secret_legacy');
  const createdAt = new Date(Date.now() - 3600_000).toISOString();
  const event = {
    id: eventId,
    type: 'payment.captured',
    createdAt,
    environment: 'sandbox',
    merchantCode: merchant,
    data: { id: 'pay_legacy' },
  };
  await queryRows(url, `INSERT INTO merchants (id, merchant_code, name) VALUES ($1, $2, 'Legacy')`, [
    uuidv7(),
    merchant,
  ]);
  await queryRows(
    url,
    `INSERT INTO webhook_endpoints (id, merchant_code, environment, url, events, secret_key_id, secret_sealed, created_at,
       description)
     VALUES ($1, $2, 'sandbox', $3, '{*}', $4, $5, $6, 'from the gateway')`,
    [endpointId, merchant, receiverUrl, sealed.keyId, sealed.blob, createdAt],
  );
  await queryRows(
    url,
    `INSERT INTO webhook_secrets (merchant_code, environment, secret_key_id, secret_sealed, created_at)
     VALUES ($1, 'sandbox', $2, $3, $4)`,
    [merchant, account.keyId, account.blob, createdAt],
  );
  await queryRows(
    url,
    `INSERT INTO webhook_deliveries (id, event_id, event_type, merchant_code, environment, target, endpoint_id, url,
       body, status, created_at)
     VALUES ($1, $2, 'payment.captured', $3, 'sandbox', $4, $5, $6, $7, 'succeeded', $8)`,
    [
      deliveryId,
      eventId,
      merchant,
      `endpoint:${endpointId}`,
      endpointId,
      receiverUrl,
      JSON.stringify(event),
      createdAt,
    ],
  );
  await queryRows(
    url,
    `INSERT INTO webhook_attempts (id, delivery_id, attempt, status, due_at, attempted_at, response_status,
       duration_ms, created_at)
     VALUES ($1, $2, 1, 'succeeded', $3, $3, 200, 12, $3)`,
    [uuidv7(), deliveryId, createdAt],
  );
  await queryRows(
    url,
    `INSERT INTO webhook_events (id, type, merchant_code, environment, created_at, body)
     VALUES ($1, 'payment.captured', $2, 'sandbox', $3, $4)`,
    [eventId, merchant, createdAt, JSON.stringify(event)],
  );
  return { merchant, endpointId, eventId, secret };
}

const count = async (url: string, table: string) =>
  (await queryRows<{ n: number }>(url, `SELECT count(*)::int AS n FROM ${table}`))[0].n;

/** docs/operations.md, Moving webhook data out of the gateway: the migrate entry point copies, then drops. */
describe('webhook data moves from the gateway database to the webhooks service', () => {
  let receiver: WebhookReceiver;
  const stacks: TestStack[] = [];
  const urls: string[] = [];
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    for (const s of stacks) await s.stop();
    await receiver?.close();
    for (const u of urls) await dropDatabase(u);
  });

  it('the gateway refuses to drop webhook data nobody copied', async () => {
    const gateway = database('gw_uncopied');
    urls.push(gateway);
    await legacyGateway(gateway, receiver.url('/uncopied'));
    await expect(
      migrateDatabase({ app: 'gateway', url: gateway, migrations: gatewayMigrations(cipher) }),
    ).rejects.toThrow(/holds webhook data the webhooks service has not got: run the migrate entry point/);
    expect(await count(gateway, 'webhook_endpoints')).toBe(1);
  });

  it('the migrate entry point copies it (secrets still sealed, ids kept) and only then drops the tables', async () => {
    const gateway = database('gw_moved');
    const webhooks = database('wh_moved');
    urls.push(gateway, webhooks);
    const legacy = await legacyGateway(gateway, receiver.url('/moved'));
    const env = { GATEWAY_DATABASE_URL: gateway, WEBHOOKS_DATABASE_URL: webhooks, WEBHOOK_SECRET_KEYS: KEYS };
    const ran = await migrate(['webhooks', 'gateway'], env);
    expect(ran.gateway).toEqual(['DropWebhookTables1768400000001']);
    for (const table of ['webhook_endpoints', 'webhook_secrets', 'webhook_deliveries', 'webhook_attempts']) {
      expect({ table, n: await count(webhooks, table) }).toEqual({ table, n: 1 });
    }
    expect(await count(webhooks, 'webhook_events')).toBe(1);
    const [endpoint] = await queryRows(webhooks, 'SELECT * FROM webhook_endpoints');
    expect(endpoint).toMatchObject({ id: legacy.endpointId, merchant_code: legacy.merchant, secret_key_id: 'k7' });
    expect(Buffer.from(endpoint.secret_sealed).toString('latin1')).not.toContain(legacy.secret);
    const tables = await queryRows(gateway, `SELECT to_regclass('webhook_endpoints') AS t`);
    expect(tables[0].t).toBeNull();
    // Again (a rerun of the Job): nothing to copy, nothing changes.
    expect(await migrate(['webhooks', 'gateway'], env)).toEqual({ webhooks: [], gateway: [] });
    expect(await copyWebhookData(gateway, webhooks)).toEqual({ copied: {}, merchants: 1 });
    expect(await count(webhooks, 'webhook_endpoints')).toBe(1);

    // The services on the moved data: the same endpoint, log and event, and the secret still signs.
    const stack = await webhookStack({
      services: [],
      env: { ...env, MIGRATIONS: 'check' },
    });
    stacks.push(stack);
    const { key } = await stack.key([legacy.merchant]);
    const got = await stack.http('GET', `/v1/webhook-endpoint/${legacy.endpointId}`, { key });
    expect(got.body).toMatchObject({ id: legacy.endpointId, description: 'from the gateway' });
    const log = await stack.http('GET', `/v1/webhook-endpoint/${legacy.endpointId}/deliveries`, { key });
    expect(log.body.map((a: { attempt: number; status: string }) => [a.attempt, a.status])).toEqual([[1, 'succeeded']]);
    expect((await stack.http('GET', `/v1/events/${legacy.eventId}`, { key })).body.id).toBe(legacy.eventId);
    const ping = await stack.http('POST', `/v1/webhook-endpoint/${legacy.endpointId}/test`, { key });
    expect(ping.status).toBe(202);
    const sent = await until(
      () => receiver.of(ping.body.eventId),
      (x) => x.length > 0,
    );
    expect(signatureValid(sent[0].headers['webhook-signature'], sent[0].body, legacy.secret)).toBe(true);
    expect((await stack.http('GET', '/v1/webhook-secret', { key })).body.secret).toBe('whsec_account_secret_legacy');
  });

  it('a copy left half done is finished by the next run, row for row', async () => {
    const gateway = database('gw_half');
    const webhooks = database('wh_half');
    urls.push(gateway, webhooks);
    const legacy = await legacyGateway(gateway, receiver.url('/half'));
    await migrateDatabase({ app: 'webhooks', url: webhooks, migrations: webhooksMigrations });
    // The first run stopped after the endpoints: the row is there already, the rest is not.
    await queryRows(webhooks, `INSERT INTO webhook_merchants (merchant_code) VALUES ($1)`, [legacy.merchant]);
    const [row] = await queryRows(gateway, 'SELECT * FROM webhook_endpoints');
    await queryRows(
      webhooks,
      `INSERT INTO webhook_endpoints SELECT * FROM jsonb_populate_record(NULL::webhook_endpoints, $1::jsonb)`,
      [JSON.stringify({ ...row, secret_sealed: `\\x${Buffer.from(row.secret_sealed).toString('hex')}` })],
    );
    const report = await copyWebhookData(gateway, webhooks);
    expect(report.copied).toEqual({
      webhook_endpoints: 1,
      webhook_secrets: 1,
      webhook_deliveries: 1,
      webhook_attempts: 1,
      webhook_events: 1,
    });
    expect(await count(webhooks, 'webhook_endpoints')).toBe(1);
    expect(await count(webhooks, 'webhook_attempts')).toBe(1);
    // The gateway's drop now goes through: the tables hold what was copied.
    expect(await migrateDatabase({ app: 'gateway', url: gateway, migrations: gatewayMigrations(cipher) })).toEqual([
      'DropWebhookTables1768400000001',
    ]);
  });
});
