import 'reflect-metadata';
import { databaseUrl, loadConfig } from '@app/config';
import { migrateDatabase } from '@app/database';
import { migrations as billing } from '../../billing/src/migrations';
import { gatewayMigrations } from '../../gateway/src/migrations';
import { gatewaySecretCipher } from '../../gateway/src/secret-keys';
import { migrations as paymentLinks } from '../../payment-links/src/migrations';
import { migrations as payments } from '../../payments/src/migrations';
import { migrations as webhooks } from '../../webhooks/src/migrations';
import { DropWebhookTables1768400000001 } from '../../gateway/src/migrations/1768400000001-drop-webhook-tables';
import { copyWebhookData } from './webhook-data';

/**
 * The migrate entry point: `node dist/apps/migrate/src/main.js [app…]` runs the pending migrations of each
 * named app's database (all five when none is named) and exits. Deployments run it as a Job with a role
 * that may change the schema, and start the apps with MIGRATIONS=check and a role that cannot. The gateway
 * goes last: webhook data its database still holds is copied to the webhooks service's database (migrated
 * first) before the gateway's migration that drops those tables (docs/operations.md).
 */
const APPS = {
  payments: (env: NodeJS.ProcessEnv) => ({
    url: urlOf('PAYMENTS_DATABASE_URL', 'payments', env),
    migrations: payments,
  }),
  'payment-links': (env: NodeJS.ProcessEnv) => ({
    url: urlOf('PAYMENT_LINKS_DATABASE_URL', 'payment_links', env),
    migrations: paymentLinks,
  }),
  billing: (env: NodeJS.ProcessEnv) => ({ url: urlOf('BILLING_DATABASE_URL', 'billing', env), migrations: billing }),
  webhooks: (env: NodeJS.ProcessEnv) => ({
    url: urlOf('WEBHOOKS_DATABASE_URL', 'webhooks', env),
    migrations: webhooks,
  }),
  gateway: (env: NodeJS.ProcessEnv) => ({
    url: urlOf('GATEWAY_DATABASE_URL', 'gateway', env),
    // One migration encrypts webhook secrets at rest: it needs the gateway's keys (GATEWAY_SECRET_KEYS).
    migrations: gatewayMigrations(gatewaySecretCipher(env)),
  }),
};
export type MigratedApp = keyof typeof APPS;
export const MIGRATED_APPS = Object.keys(APPS) as MigratedApp[];

function urlOf(variable: string, database: string, env: NodeJS.ProcessEnv): string {
  return loadConfig({ [variable]: databaseUrl(database) }, env)[variable];
}

/** Migrates the apps' databases one after the other; answers what each ran. */
export async function migrate(
  apps: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<Record<string, string[]>> {
  const unknown = apps.filter((a) => !(a in APPS));
  if (unknown.length) throw new Error(`unknown app ${unknown.join(', ')}: name one of ${MIGRATED_APPS.join(', ')}`);
  const ran: Record<string, string[]> = {};
  for (const app of MIGRATED_APPS.filter((a) => !apps.length || apps.includes(a))) {
    ran[app] = app === 'gateway' ? await migrateGateway(env) : await migrateDatabase({ app, ...APPS[app](env) });
  }
  return ran;
}

/**
 * The gateway's migrations up to the one that drops its webhook tables, the copy of their rows to the webhooks
 * service's database (migrated first, a no-op when it is up to date), then the rest.
 */
async function migrateGateway(env: NodeJS.ProcessEnv): Promise<string[]> {
  const gateway = APPS.gateway(env);
  const upTo = gateway.migrations.filter((m) => m !== DropWebhookTables1768400000001);
  const before = await migrateDatabase({ app: 'gateway', url: gateway.url, migrations: upTo });
  await migrateDatabase({ app: 'webhooks', ...APPS.webhooks(env) });
  await copyWebhookData(gateway.url, APPS.webhooks(env).url);
  return [...before, ...(await migrateDatabase({ app: 'gateway', ...gateway }))];
}

if (require.main === module) {
  migrate(process.argv.slice(2)).then(
    (ran) => {
      const lines = Object.entries(ran).map(([app, names]) => `${app}: ${names.join(', ') || 'nothing pending'}\n`);
      // Exit once written: a library's idle handle must not keep a finished Job's pod running.
      process.stdout.write(lines.join(''), () => process.exit(0));
    },
    (e: Error) => {
      process.stderr.write(`migrate failed: ${e.message}\n`, () => process.exit(1));
    },
  );
}
