import { INestApplication } from '@nestjs/common';
import { TestStack } from '../support/stack';

/** Every background loop of each app, by the name its metrics carry. */
const LOOPS: Record<string, string[]> = {
  gateway: ['outbox_relay', 'outbox_prune', 'checkout_attempts_prune', 'dashboard_prune'],
  payments: [
    'outbox_relay',
    'outbox_prune',
    'idempotency_sweep',
    'hold_expiry',
    'acquirer_recovery',
    'threeds_expiry',
    'nonce_sweep',
  ],
  'payment-links': ['outbox_relay', 'outbox_prune', 'idempotency_sweep', 'link_expiry', 'link_use_reconcile'],
  billing: ['outbox_relay', 'outbox_prune', 'idempotency_sweep', 'renewal', 'account_updater'],
  webhooks: ['idempotency_sweep', 'webhook_delivery', 'event_retention'],
};
const SERIES = [
  'loop_runs_total',
  'loop_failures_total',
  'loop_duration_seconds_count',
  'loop_last_success_age_seconds',
];

/** An app's /metrics: a service's own HTTP server, the gateway's internal port. */
async function metricsOf(app: INestApplication, adminUrl?: string): Promise<string> {
  const url = adminUrl ?? (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return (await fetch(`${url}/metrics`)).text();
}

/** The value of `series` for `loop` in a /metrics text, if exported. */
function valueOf(text: string, series: string, loop: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series}{`) && l.includes(`loop="${loop}"`));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

describe('background loops on /metrics', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['payments', 'payment-links', 'billing'],
      // Every loop on its timer (the stack turns the renewal loop off by default).
      env: { RENEWAL_POLL_MS: '60000' },
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('every loop of every app exports its runs, failures, duration and age of the last success', async () => {
    const apps: Record<string, INestApplication> = {
      gateway: stack.gateway!,
      payments: stack.services.get('payments')![0],
      'payment-links': stack.services.get('payment-links')![0],
      billing: stack.services.get('billing')![0],
      webhooks: stack.services.get('webhooks')![0],
    };
    for (const [name, loops] of Object.entries(LOOPS)) {
      // Each loop runs once right after start; wait for the first run of every one.
      const deadline = Date.now() + 20_000;
      let text = await metricsOf(apps[name], name === 'gateway' ? stack.adminUrl : undefined);
      while (loops.some((l) => !valueOf(text, 'loop_runs_total', l)) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        text = await metricsOf(apps[name], name === 'gateway' ? stack.adminUrl : undefined);
      }
      const missing = loops.flatMap((loop) =>
        SERIES.filter((s) => valueOf(text, s, loop) === undefined).map((s) => `${name} ${s}{loop="${loop}"}`),
      );
      expect(missing).toEqual([]);
      const runs = Object.fromEntries(loops.map((l) => [l, valueOf(text, 'loop_runs_total', l)! > 0]));
      expect(runs).toEqual(Object.fromEntries(loops.map((l) => [l, true])));
      const failures = Object.fromEntries(loops.map((l) => [l, valueOf(text, 'loop_failures_total', l)]));
      expect(failures).toEqual(Object.fromEntries(loops.map((l) => [l, 0])));
    }
  });
});
