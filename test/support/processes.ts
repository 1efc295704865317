import { ChildProcess, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ServiceName } from '@app/contracts';
import { Faults } from './fault-injection';
import { ADMIN_TOKEN, runState } from './run-state';
import { createFromTemplate, dropDatabases } from './templates';

export { ADMIN_TOKEN };

/** One child of the bench's `Children` (bench/lib/procs.js). */
export interface ChildEntry {
  name: string;
  child: ChildProcess;
  pid: number;
  exited: boolean;
  exit?: string | number;
  exitPromise: Promise<string | number>;
}
interface Children {
  logFile(name: string): string;
  spawn(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): ChildEntry;
  stopAll(): Promise<void>;
  tail(name: string, lines?: number): string;
}

// The bench's helpers for apps as child processes, reused as they are.
const procs = require('../../bench/lib/procs') as {
  Children: new (logDir: string) => Children;
  freePort(): Promise<number>;
  waitForHttp(url: string, entry: ChildEntry, children: Children, timeoutMs?: number): Promise<void>;
};
const { withAppNodeOptions } = require('../../scripts/app-node-options') as {
  withAppNodeOptions(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
};

export const ROOT = resolve(__dirname, '..', '..');
export type AppName = 'gateway' | ServiceName;
const APPS: Record<AppName, { db: string; portVar: string; dbVar: string }> = {
  gateway: { db: 'gateway', portVar: 'PORT', dbVar: 'GATEWAY_DATABASE_URL' },
  payments: { db: 'payments', portVar: 'PAYMENTS_HTTP_PORT', dbVar: 'PAYMENTS_DATABASE_URL' },
  'payment-links': { db: 'payment_links', portVar: 'PAYMENT_LINKS_HTTP_PORT', dbVar: 'PAYMENT_LINKS_DATABASE_URL' },
  billing: { db: 'billing', portVar: 'BILLING_HTTP_PORT', dbVar: 'BILLING_DATABASE_URL' },
  webhooks: { db: 'webhooks', portVar: 'WEBHOOKS_HTTP_PORT', dbVar: 'WEBHOOKS_DATABASE_URL' },
};

/** Builds dist/ when it is missing or older than the sources (the apps run from the build). */
export function ensureBuild(): void {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts/ensure-build.js')], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`the build failed:\n${r.stderr}`);
}

export interface AppProcess {
  name: string;
  app: AppName;
  /** http://127.0.0.1:<port>: the gateway's API, or a service's health and metrics server. */
  url: string;
  /** Where its admin API and /metrics answer: the gateway's internal port, a service's own url. */
  adminUrl: string;
  entry: ChildEntry;
  /** How the process ended (exit code or signal) and when (Date.now()). */
  ended: Promise<{ exit: string | number; at: number }>;
  /** The JSON lines it logged so far. */
  logLines(): Array<Record<string, unknown>>;
}

/**
 * The built apps as real child processes (node dist/apps/<app>/src/main.js, as Kubernetes runs them) on
 * databases of their own (`t_<run>_…`, dropped by `stop()`) and the run's NATS server, so a test can send
 * them signals. Logs go to one file per process.
 */
export class ProcessSuite {
  private readonly children: Children;
  private webhooksStarted = false;
  readonly env: NodeJS.ProcessEnv;

  private constructor(
    private readonly logDir: string,
    private readonly databases: string[],
    env: Record<string, string>,
  ) {
    this.children = new procs.Children(logDir);
    this.env = withAppNodeOptions({ PATH: process.env.PATH, HOME: process.env.HOME, ...env });
  }

  /**
   * `apps`: the apps whose databases to make. A suite with the gateway has the webhooks service too (the gateway
   * names every merchant it creates to it): `startApp('gateway')` starts one first unless the test did.
   */
  static async start(o: {
    apps: AppName[];
    env?: Record<string, string>;
    /**
     * Databases the test made and migrated itself (another PostgreSQL server, e.g. test/support/pg-pair.ts): the
     * suite neither copies nor drops them.
     */
    databaseUrls?: Partial<Record<AppName, string>>;
  }): Promise<ProcessSuite> {
    if (o.apps.includes('gateway') && !o.apps.includes('webhooks')) o = { ...o, apps: [...o.apps, 'webhooks'] };
    const state = runState();
    const prefix = `t_${state.runId}_${randomBytes(5).toString('hex')}`;
    const given = o.databaseUrls ?? {};
    const copied = o.apps.filter((a) => !given[a]);
    const urls = Object.fromEntries(copied.map((a) => [APPS[a].dbVar, `${state.pgBase}/${prefix}_${APPS[a].db}`]));
    const givenUrls = Object.fromEntries(o.apps.flatMap((a) => (given[a] ? [[APPS[a].dbVar, given[a]]] : [])));
    const env: Record<string, string> = {
      NODE_ENV: 'test',
      // Tests speak plain http:// to the gateway: the dashboard cookie without Secure (docs/configuration.md).
      DASHBOARD_INSECURE_COOKIE: 'true',
      NATS_URL: state.natsUrl,
      LOG_LEVEL: 'info',
      ADMIN_TOKEN,
      HOST: '127.0.0.1',
      DEMO_MERCHANT: 'false',
      RATE_LIMIT_PER_SECOND: '0',
      OUTBOX_POLL_MS: '50',
      // Tests move sandbox clocks to fixed dates (2028, 2029) from whatever day they run on, in one call.
      SANDBOX_MAX_ADVANCE: 'P10Y',
      WEBHOOK_CONSUMER_NAME: `${prefix}_webhooks`,
      ...urls,
      ...givenUrls,
      ...o.env,
    };
    // Copies of the run's migrated databases, as a TestStack starts on: each process finds no migration pending.
    const databases = Object.values(urls);
    try {
      for (const a of copied) await createFromTemplate(a, env);
    } catch (e) {
      await dropDatabases(databases);
      throw e;
    }
    return new ProcessSuite(mkdtempSync(join(tmpdir(), 'app-processes-')), databases, env);
  }

  databaseUrl(app: AppName): string {
    return String(this.env[APPS[app].dbVar]);
  }

  /** Starts one process of `app` on a free port and waits until it is ready; `name` tells replicas apart. */
  async startApp(
    app: AppName,
    o: { name?: string; env?: Record<string, string>; faults?: Faults } = {},
  ): Promise<AppProcess> {
    if (app === 'gateway' && !this.webhooksStarted) await this.startApp('webhooks');
    if (app === 'webhooks') this.webhooksStarted = true;
    const name = o.name ?? app;
    const port = await procs.freePort();
    const adminPort = app === 'gateway' ? await procs.freePort() : port;
    // With faults, the test entry point that injects them starts the built app (see test/support/faults.js).
    const main = o.faults
      ? [join(ROOT, 'test/support/faults.js'), app, JSON.stringify(o.faults)]
      : [join(ROOT, 'dist/apps', app, 'src/main.js')];
    const env = { ...this.env, [APPS[app].portVar]: String(port), ADMIN_PORT: String(adminPort), ...o.env };
    const entry = this.children.spawn(name, process.execPath, main, env);
    const ended = entry.exitPromise.then((exit) => ({ exit, at: Date.now() }));
    const url = `http://127.0.0.1:${port}`;
    await procs.waitForHttp(`${url}/health/ready`, entry, this.children, 120_000);
    const adminUrl = `http://127.0.0.1:${env.ADMIN_PORT}`;
    return { name, app, url, adminUrl, entry, ended, logLines: () => this.logLines(name) };
  }

  logLines(name: string): Array<Record<string, unknown>> {
    let text: string;
    try {
      text = readFileSync(this.children.logFile(name), 'utf8');
    } catch {
      return [];
    }
    return text
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  tail(name: string): string {
    return this.children.tail(name, 30);
  }

  /** Stops what still runs (SIGTERM, then SIGKILL), drops the databases and the logs (KEEP_TEST_LOGS=1 keeps them). */
  async stop(): Promise<void> {
    await this.children.stopAll();
    const problems = await dropDatabases(this.databases);
    if (process.env.KEEP_TEST_LOGS) process.stderr.write(`logs kept in ${this.logDir}\n`);
    else rmSync(this.logDir, { recursive: true, force: true });
    if (problems.length) throw new Error(`databases not dropped: ${problems.join('; ')}`);
  }
}

/** Log lines at level error (50) or above. */
export const errorLines = (lines: Array<Record<string, unknown>>): Array<Record<string, unknown>> =>
  lines.filter((l) => Number(l.level) >= 50);
