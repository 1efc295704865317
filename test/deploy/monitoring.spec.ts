import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse } from 'yaml';
import { K8sDoc, loadK8sDocs, ofKind, ROOT, schemaProblems, Service } from './manifest-checks';
import {
  dashboardFiles,
  metricUses,
  MONITORING_DIR,
  monitoringExpressions,
  ruleDocs,
  syntaxErrors,
} from '../support/promql';

interface ServiceMonitor {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec: {
    selector: {
      matchLabels?: Record<string, string>;
      matchExpressions?: { key: string; operator: string; values: string[] }[];
    };
    endpoints: { port: string; path?: string }[];
  };
}

const docs = loadK8sDocs();
const selected = (m: ServiceMonitor): Service[] =>
  ofKind<Service>(docs, 'Service').filter((s) => {
    const labels = (s.metadata.labels ?? {}) as Record<string, string>;
    const { matchLabels = {}, matchExpressions = [] } = m.spec.selector;
    return (
      Object.entries(matchLabels).every(([k, v]) => labels[k] === v) &&
      matchExpressions.every((e) => e.operator === 'In' && e.values.includes(labels[e.key]))
    );
  });

/** What kustomize's configMapGenerator makes of k8s/monitoring/kustomization.yaml: the dashboards' ConfigMap. */
function generatedConfigMap(): K8sDoc {
  const k = parse(readFileSync(join(MONITORING_DIR, 'kustomization.yaml'), 'utf8')) as {
    configMapGenerator: { name: string; files: string[]; options?: { labels?: Record<string, string> } }[];
  };
  const [gen] = k.configMapGenerator;
  const data = Object.fromEntries(gen.files.map((f) => [basename(f), readFileSync(join(MONITORING_DIR, f), 'utf8')]));
  return {
    where: 'k8s/monitoring configMapGenerator',
    obj: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: gen.name, labels: gen.options?.labels },
      data,
    } as never,
  };
}

describe('k8s/monitoring', () => {
  it('holds the dashboards scripts/dashboards.js writes', () => {
    expect(() =>
      execFileSync(process.execPath, ['scripts/dashboards.js', '--check'], { cwd: ROOT, stdio: 'pipe' }),
    ).not.toThrow();
    expect(dashboardFiles().map((f) => basename(f))).toEqual([
      'billing.json',
      'gateway.json',
      'overview.json',
      'payment-links.json',
      'payments.json',
      'webhooks.json',
    ]);
  });

  it('makes one ConfigMap of every dashboard, labelled for the Grafana sidecar, valid and small enough to apply', () => {
    const map = generatedConfigMap();
    const data = (map.obj as unknown as { data: Record<string, string> }).data;
    expect(Object.keys(data).sort()).toEqual(dashboardFiles().map((f) => basename(f)));
    expect(
      (map.obj as unknown as { metadata: { labels: Record<string, string> } }).metadata.labels.grafana_dashboard,
    ).toBe('1');
    expect(schemaProblems([map])).toEqual([]);
    // kubectl apply keeps a copy in an annotation limited to 256 KiB.
    expect(Buffer.byteLength(JSON.stringify(data))).toBeLessThan(256 * 1024);
    const uids = Object.values(data).map((t) => (JSON.parse(t) as { uid: string }).uid);
    expect(new Set(uids).size).toBe(uids.length);
  }, 30_000);

  it('writes only PromQL that parses, in every panel and rule', () => {
    const bad = monitoringExpressions().filter((e) => syntaxErrors(e.expr).length);
    expect(bad).toEqual([]);
    expect(syntaxErrors('sum(rate(requests_total[5m])')).not.toEqual([]);
  });

  it('covers what the issue names on the dashboards', () => {
    const names = new Set(monitoringExpressions().flatMap((e) => metricUses(e.expr).map((u) => u.name)));
    for (const metric of [
      'requests_total',
      'request_duration_seconds_bucket',
      'outbox_unpublished_events',
      'outbox_oldest_unpublished_age_seconds',
      'webhook_attempts_due',
      'webhook_oldest_due_age_seconds',
      'billing_renewals_due',
      'outbox_events_published_total',
      'db_pool_connections',
      'db_pool_max_connections',
      'nodejs_eventloop_lag_p99_seconds',
      'process_resident_memory_bytes',
      'readiness_transitions_total',
    ]) {
      expect([metric, names.has(metric)]).toEqual([metric, true]);
    }
  });

  it('alerts on error rate, p99, outbox age, webhooks (dead, old or growing backlog), late renewals and readiness flapping, each with a severity and a summary', () => {
    const rules = ruleDocs().flatMap((d) => d.spec.groups.flatMap((g) => g.rules)) as {
      alert: string;
      labels?: Record<string, string>;
      annotations?: Record<string, string>;
    }[];
    expect(rules.map((r) => r.alert)).toEqual(
      expect.arrayContaining([
        'GatewayHighErrorRate',
        'GatewayHighLatencyP99',
        'OutboxEventsStuck',
        'WebhookDeadDeliveries',
        'WebhookBacklogOld',
        'WebhookBacklogGrowing',
        'RenewalsFallingBehind',
        'ReadinessFlapping',
      ]),
    );
    const incomplete = rules.filter(
      (r) => !['critical', 'warning'].includes(r.labels?.severity ?? '') || !r.annotations?.summary,
    );
    expect(incomplete.map((r) => r.alert)).toEqual([]);
  });

  it('scrapes the gateway on its internal port and the services on their health port, through Services that exist', () => {
    const monitors = ofKind<ServiceMonitor>(docs, 'ServiceMonitor');
    const targets = monitors.flatMap((m) =>
      m.spec.endpoints.flatMap((e) =>
        selected(m)
          .filter((s) => s.spec.ports.some((p) => (p as { name?: string }).name === e.port))
          .map((s) => `${s.metadata.name}:${e.port}${e.path}`),
      ),
    );
    expect(targets.sort()).toEqual([
      'billing:http/metrics',
      'gateway-internal:internal/metrics',
      'payment-links:http/metrics',
      'payments:http/metrics',
      'webhooks:http/metrics',
    ]);
  });
});
