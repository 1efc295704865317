import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, dropDatabase, ensureDatabase, migrateWithLock } from '@app/database';
import { gatewayMigrations } from '../../apps/gateway/src/migrations';
import { DropWebhookTables1768400000001 } from '../../apps/gateway/src/migrations/1768400000001-drop-webhook-tables';
import { WebhookSecretCipher } from '@app/cipher';
import { runState } from '../support/run-state';
import { TestStack } from '../support/stack';
import { signatureValid } from './emit';
import { WebhookReceiver, webhookStack } from '../support/webhook-receiver';
import { until } from '../support/wait';
import { queryRows } from '../support/db';

jest.setTimeout(60_000);

const KEYS = `k2:${randomBytes(32).toString('base64')},k1:${randomBytes(32).toString('base64')}`;

/** Bytes and text of a row, to look for a secret anywhere in it. */
const rowText = (row: Record<string, unknown>): string =>
  Object.values(row)
    .map((v) => (Buffer.isBuffer(v) ? v.toString('latin1') : JSON.stringify(v)))
    .join('|');

/** Webhook signing secrets are sealed at rest with WEBHOOK_SECRET_KEYS, and deliveries still verify. */
describe('webhook secrets at rest', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await webhookStack({
      services: [],
      env: { WEBHOOK_SECRET_KEYS: KEYS },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it('an endpoint secret is stored sealed under the first key, and its deliveries verify with it', async () => {
    const m = await stack.merchant();
    const key = (await stack.key([m])).key;
    const ep = await stack.http('POST', '/v1/webhook-endpoint', {
      key,
      body: { url: receiver.url('/sealed'), events: ['*'] },
    });
    const secret: string = ep.body.secret;
    const [row] = await queryRows(stack.env.WEBHOOKS_DATABASE_URL, 'SELECT * FROM webhook_endpoints WHERE id = $1', [
      ep.body.id,
    ]);
    expect(row).not.toHaveProperty('secret');
    expect(row.secret_key_id).toBe('k2');
    expect(rowText(row)).not.toContain(secret);
    expect(rowText(row)).not.toContain(secret.slice('whsec_'.length, 20));

    const test = await stack.http('POST', `/v1/webhook-endpoint/${ep.body.id}/test`, { key });
    const got = await until(
      () => receiver.of(test.body.eventId),
      (x) => x.length > 0,
    );
    expect(got).toHaveLength(1);
    expect(signatureValid(got[0].headers['webhook-signature'], got[0].body, secret)).toBe(true);
  });

  it('the account secret is stored sealed too, and reads back the same', async () => {
    const m = await stack.merchant();
    const key = (await stack.key([m])).key;
    const first = await stack.http('GET', '/v1/webhook-secret', { key });
    const rolled = await stack.http('POST', '/v1/webhook-secret/roll', { key });
    expect((await stack.http('GET', '/v1/webhook-secret', { key })).body.secret).toBe(rolled.body.secret);
    const rows = await queryRows(
      stack.env.WEBHOOKS_DATABASE_URL,
      'SELECT * FROM webhook_secrets WHERE merchant_code = $1',
      [m],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).not.toHaveProperty('secret');
    for (const s of [first.body.secret, rolled.body.secret]) expect(rowText(rows[0])).not.toContain(s);
  });

  it('the migration seals the clear secrets of an existing database and drops the clear column', async () => {
    const url = `${runState().pgBase}/t_${runState().runId}_whsec_${randomBytes(3).toString('hex')}`;
    const cipher = WebhookSecretCipher.fromConfig({ WEBHOOK_SECRET_KEYS: KEYS });
    // The gateway's webhook migrations, before its tables moved to the webhooks service.
    const all = gatewayMigrations(cipher).filter((m) => m !== DropWebhookTables1768400000001);
    await ensureDatabase(url);
    const open = async (migrations: typeof all) =>
      new DataSource(dataSourceOptions({ app: 'gateway', url, entities: [], migrations, poolSize: 2 })).initialize();
    // The database as it was before the encryption: every migration up to that one.
    const encryption = all.findIndex((m) => m.name === 'EncryptWebhookSecrets1766000000000');
    const before = await open(all.slice(0, encryption));
    try {
      await migrateWithLock(before, 'gateway:migrations');
      const endpointId = '01900000-0000-7000-8000-000000000001';
      await before.query(
        `INSERT INTO webhook_endpoints (id, merchant_code, environment, url, events, secret, created_at)
         VALUES ($1, 'm1', 'sandbox', 'https://example.com/h', '{*}', 'whsec_endpoint_clear', now())`,
        [endpointId],
      );
      await before.query(
        `INSERT INTO webhook_secrets (merchant_code, environment, secret, created_at)
         VALUES ('m1', 'production', 'whsec_account_clear', now())`,
      );
      await before.destroy();
      const after = await open(all);
      try {
        expect((await migrateWithLock(after, 'gateway:migrations')).map((m) => m.name)).toEqual(
          all.slice(encryption).map((m) => m.name),
        );
        const [ep] = await after.query('SELECT * FROM webhook_endpoints');
        const [acct] = await after.query('SELECT * FROM webhook_secrets');
        expect(ep).not.toHaveProperty('secret');
        expect(rowText(ep)).not.toContain('whsec_endpoint_clear');
        expect(rowText(acct)).not.toContain('whsec_account_clear');
        expect(cipher.open({ endpointId }, { keyId: ep.secret_key_id, blob: ep.secret_sealed })).toBe(
          'whsec_endpoint_clear',
        );
        const owner = { merchantCode: 'm1', environment: 'production' };
        expect(cipher.open(owner, { keyId: acct.secret_key_id, blob: acct.secret_sealed })).toBe('whsec_account_clear');
        // A blob copied to another owner does not open.
        expect(() =>
          cipher.open({ endpointId: 'other' }, { keyId: ep.secret_key_id, blob: ep.secret_sealed }),
        ).toThrow();
      } finally {
        await after.destroy();
      }
    } finally {
      if (before.isInitialized) await before.destroy();
      await dropDatabase(url);
    }
  });
});
