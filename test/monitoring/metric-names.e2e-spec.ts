import { AppName, AppProcess, ensureBuild, ProcessSuite } from '../support/processes';
import { metricUses, monitoringExpressions, servedNames } from '../support/promql';

const APPS: AppName[] = ['webhooks', 'gateway', 'payments', 'payment-links', 'billing'];
/** The apps that write events through an outbox (the webhooks service emits none). */
const OUTBOX_APPS: AppName[] = APPS.filter((a) => a !== 'webhooks');

/**
 * Every metric that a dashboard panel or an alerting rule in k8s/monitoring reads is served by the running apps'
 * /metrics (the gateway's on its internal port), by the app its `app="…"` matcher names.
 */
describe('the dashboards and alerts read metrics the apps serve', () => {
  let suite: ProcessSuite;
  const served = new Map<string, Set<string>>();
  const pages = new Map<string, string>();

  beforeAll(async () => {
    ensureBuild();
    suite = await ProcessSuite.start({ apps: APPS });
    const started: AppProcess[] = [];
    for (const app of APPS) started.push(await suite.startApp(app));
    for (const p of started) {
      const res = await fetch(`${p.adminUrl}/metrics`);
      expect(res.status).toBe(200);
      const text = await res.text();
      pages.set(p.app, text);
      served.set(p.app, servedNames(text));
    }
  }, 300_000);
  afterAll(async () => {
    await suite?.stop();
  }, 60_000);

  it('finds expressions in every dashboard and rule file', () => {
    const expressions = monitoringExpressions();
    expect(expressions.length).toBeGreaterThan(50);
    const sources = new Set(expressions.map((e) => e.where.split(' / ')[0]));
    expect([...sources].sort()).toEqual([
      'Payments platform: billing',
      'Payments platform: gateway',
      'Payments platform: overview',
      'Payments platform: payment-links',
      'Payments platform: payments',
      'Payments platform: webhooks',
      'payments-platform',
    ]);
  });

  it('names only metrics that the named app (or, unnamed, some app) serves', () => {
    const all = new Set([...served.values()].flatMap((s) => [...s]));
    const missing = monitoringExpressions().flatMap(({ where, expr }) =>
      metricUses(expr)
        .filter(({ name, app }) => !(app === undefined ? all.has(name) : served.get(app)?.has(name)))
        .map(({ name, app }) => `${where}: ${name}${app ? ` (app ${app})` : ''}`),
    );
    expect(missing).toEqual([]);
  });

  it('reads the database-backed gauges at the scrape: backlogs and the pool have samples', () => {
    const sample = (app: string, series: string): number | undefined => {
      const line = pages
        .get(app)
        ?.split('\n')
        .find((l) => l.startsWith(series));
      return line === undefined ? undefined : Number(line.split(' ').pop());
    };
    for (const app of APPS) {
      if (OUTBOX_APPS.includes(app)) {
        expect([app, sample(app, 'outbox_unpublished_events{')]).toEqual([app, expect.any(Number)]);
        expect([app, sample(app, 'outbox_oldest_unpublished_age_seconds{')]).toEqual([app, expect.any(Number)]);
      }
      expect([app, sample(app, 'db_pool_max_connections{')]).toEqual([app, expect.any(Number)]);
      expect([app, sample(app, 'db_pool_connections{state="idle"')! >= 0]).toEqual([app, true]);
      expect([app, sample(app, 'readiness_ready{')]).toEqual([app, 1]);
    }
    expect(sample('webhooks', 'webhook_attempts_due{')).toBe(0);
    expect(sample('billing', 'billing_renewals_due{')).toBe(0);
    expect(sample('billing', 'billing_renewal_oldest_due_age_seconds{')).toBe(0);
  });

  it('self-check: a misspelt metric, or one pinned to an app that lacks it, is caught', () => {
    const uses = metricUses('sum(rate(requests_totl[5m])) + max(webhook_attempts_due{app="billing"})');
    expect(uses).toEqual([{ name: 'requests_totl' }, { name: 'webhook_attempts_due', app: 'billing' }]);
    expect(served.get('webhooks')?.has('webhook_attempts_due')).toBe(true);
    expect(served.get('billing')?.has('webhook_attempts_due')).toBe(false);
    expect(served.get('gateway')?.has('requests_totl')).toBe(false);
  });
});
