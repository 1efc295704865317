import 'reflect-metadata';
import { databaseUrl, loadConfig } from '@app/config';
import { migrateDatabase } from '@app/database';
import { migrations as billing } from '../../billing/src/migrations';
import { gatewayMigrations } from '../../gateway/src/migrations';
import { WebhookSecretCipher } from '@app/cipher';
import { migrations as paymentLinks } from '../../payment-links/src/migrations';
import { migrations as payments } from '../../payments/src/migrations';

/**
 * The migrate entry point: `node dist/apps/migrate/src/main.js [app…]` runs the pending migrations of each
 * named app's database (all four when none is named) and exits. Deployments run it as a Job with a role
 * that may change the schema, and start the apps with MIGRATIONS=check and a role that cannot.
 */
const APPS = {
  gateway: (env: NodeJS.ProcessEnv) => ({
    url: urlOf('GATEWAY_DATABASE_URL', 'gateway', env),
    // One migration encrypts webhook secrets at rest: it needs the deployment's keys.
    migrations: gatewayMigrations(WebhookSecretCipher.fromConfig(env)),
  }),
  payments: (env: NodeJS.ProcessEnv) => ({
    url: urlOf('PAYMENTS_DATABASE_URL', 'payments', env),
    migrations: payments,
  }),
  'payment-links': (env: NodeJS.ProcessEnv) => ({
    url: urlOf('PAYMENT_LINKS_DATABASE_URL', 'payment_links', env),
    migrations: paymentLinks,
  }),
  billing: (env: NodeJS.ProcessEnv) => ({ url: urlOf('BILLING_DATABASE_URL', 'billing', env), migrations: billing }),
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
  for (const app of (apps.length ? apps : MIGRATED_APPS) as MigratedApp[]) {
    ran[app] = await migrateDatabase({ app, ...APPS[app](env) });
  }
  return ran;
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
