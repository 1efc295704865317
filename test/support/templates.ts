import { Client } from 'pg';
import { ServiceName } from '@app/contracts';
import { migrate } from '../../apps/migrate/src/main';
import { runState } from './run-state';

type App = 'gateway' | ServiceName;

const DATABASE_VARIABLE: Record<App, string> = {
  gateway: 'GATEWAY_DATABASE_URL',
  payments: 'PAYMENTS_DATABASE_URL',
  'payment-links': 'PAYMENT_LINKS_DATABASE_URL',
  billing: 'BILLING_DATABASE_URL',
  webhooks: 'WEBHOOKS_DATABASE_URL',
};

/**
 * Creates the database `env` names for `app` as a copy of the run's migrated template of that app (made by the
 * first stack of the run that needs it), so a stack starts on a migrated database without running every
 * migration again: the app then finds none pending. A database that exists already is left as it is.
 */
export async function createFromTemplate(app: App, env: Record<string, string>): Promise<void> {
  const { pgBase, runId } = runState();
  const name = databaseName(env[DATABASE_VARIABLE[app]]);
  const template = `t_${runId}_template_${app.replace('-', '_')}`;
  const pg = new Client({ connectionString: `${pgBase}/postgres` });
  await pg.connect();
  try {
    if (await exists(pg, name)) return;
    if (!(await exists(pg, template))) await makeTemplate(pg, app, template, env);
    await pg.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`).catch((e: { code?: string }) => {
      if (e.code !== '42P04') throw e; // duplicate_database: a stack that shares it made it first
    });
  } finally {
    await pg.end();
  }
}

/**
 * Migrates a fresh database and renames it to `template` once done, under a lock that workers of the run share,
 * so a template that exists is complete. Nobody may connect to it afterwards: a connection would make a copy fail.
 */
async function makeTemplate(pg: Client, app: App, template: string, env: Record<string, string>): Promise<void> {
  await pg.query('SELECT pg_advisory_lock(hashtext($1))', [template]);
  try {
    if (await exists(pg, template)) return;
    const building = `${template}_building`;
    await pg.query(`DROP DATABASE IF EXISTS "${building}"`);
    const url = new URL(env[DATABASE_VARIABLE[app]]);
    url.pathname = `/${building}`;
    await migrate([app], { ...env, [DATABASE_VARIABLE[app]]: url.toString() });
    await pg.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
    await pg.query(`ALTER DATABASE "${template}" WITH ALLOW_CONNECTIONS false`);
  } finally {
    await pg.query('SELECT pg_advisory_unlock(hashtext($1))', [template]);
  }
}

/** Drops the databases of these URLs (connections and all); answers what could not be dropped. */
export async function dropDatabases(urls: string[]): Promise<string[]> {
  const pg = new Client({ connectionString: `${runState().pgBase}/postgres` });
  await pg.connect();
  const problems: string[] = [];
  try {
    for (const name of urls.map(databaseName)) {
      await pg.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch((e: Error) => {
        problems.push(`${name}: ${e.message}`);
      });
    }
  } finally {
    await pg.end();
  }
  return problems;
}

async function exists(pg: Client, name: string): Promise<boolean> {
  return (await pg.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
}

function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
}
