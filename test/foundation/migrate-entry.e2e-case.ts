import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { migrate } from '../../apps/migrate/src/main';
import { paymentBody } from '../payments/payments-fixtures';
import { ensureBuild, ROOT } from '../support/processes';
import { TestStack } from '../support/stack';

/** Migrations as a separate step (a Kubernetes Job), and apps that only check that none is pending. */
describe('the migrate entry point and MIGRATIONS=check', () => {
  const stacks: TestStack[] = [];
  const bare = async (): Promise<TestStack> => {
    const stack = await TestStack.start({ services: [], gateway: false });
    stacks.push(stack);
    return stack;
  };
  afterAll(async () => {
    for (const s of stacks) await s.stop();
  });

  it('an app with MIGRATIONS=check refuses to start on a database with pending migrations', async () => {
    ensureBuild();
    const stack = await bare();
    for (const app of ['payments', 'gateway']) {
      const r = spawnSync(process.execPath, [join(ROOT, 'dist/apps', app, 'src/main.js')], {
        env: { PATH: process.env.PATH, ...stack.env, MIGRATIONS: 'check', PAYMENTS_HTTP_PORT: '0' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect({ app, status: r.status }).toEqual({ app, status: 1 });
      expect(r.stdout + r.stderr).toContain(
        `the ${app} database has pending migrations and MIGRATIONS=check: run the migrate entry point first`,
      );
    }
  });

  it('migrates every app once; the apps then start with MIGRATIONS=check and take a purchase', async () => {
    const stack = await bare();
    const first = await migrate([], stack.env);
    expect(Object.keys(first)).toEqual(['payments', 'payment-links', 'billing', 'webhooks', 'gateway']);
    for (const names of Object.values(first)) expect(names.length).toBeGreaterThan(0);
    expect(await migrate([], stack.env)).toEqual({
      payments: [],
      'payment-links': [],
      billing: [],
      webhooks: [],
      gateway: [],
    });

    for (const s of ['payments', 'payment-links', 'billing', 'webhooks'] as const)
      await stack.startService(s, { MIGRATIONS: 'check' });
    await stack.startGateway({ MIGRATIONS: 'check' });
    const merchantCode = await stack.merchant();
    const { key } = await stack.key([merchantCode]);
    const r = await stack.http('POST', '/v1/payment/purchase', {
      key,
      body: paymentBody(merchantCode),
      headers: { 'idempotency-key': `mig-${merchantCode}` },
    });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('captured');
  });

  it('refuses an unknown app name', async () => {
    await expect(migrate(['gateway', 'ledger'], {})).rejects.toThrow(/unknown app ledger/);
  });

  it('runs as a process: node dist/apps/migrate/src/main.js <app>', async () => {
    ensureBuild();
    const stack = await bare();
    const run = () =>
      spawnSync(process.execPath, [join(ROOT, 'dist/apps/migrate/src/main.js'), 'payments'], {
        env: { PATH: process.env.PATH, ...stack.env },
        encoding: 'utf8',
      });
    const first = run();
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^payments: CreateOutbox1763700000000, /);
    const again = run();
    expect(again.status).toBe(0);
    expect(again.stdout).toBe('payments: nothing pending\n');
    const bad = spawnSync(process.execPath, [join(ROOT, 'dist/apps/migrate/src/main.js'), 'ledger'], {
      env: { PATH: process.env.PATH, ...stack.env },
      encoding: 'utf8',
    });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/migrate failed: unknown app ledger/);
  });
});
