import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parser } from '@prometheus-io/lezer-promql';
import { parseAllDocuments } from 'yaml';

export const MONITORING_DIR = join(__dirname, '..', '..', 'k8s', 'monitoring');

/** One PromQL expression of a dashboard panel or an alerting rule, and where it is. */
export interface Expression {
  where: string;
  expr: string;
}

/** A metric an expression reads, and the app its `app="…"` matcher names (any app when it names none). */
export interface MetricUse {
  name: string;
  app?: string;
}

interface Panel {
  title: string;
  targets?: { expr: string }[];
}
interface Rule {
  alert?: string;
  record?: string;
  expr: string | number;
}
export interface RuleDoc {
  kind: string;
  metadata: { name: string };
  spec: { groups: { name: string; rules: Rule[] }[] };
}

/** Grafana's built-in variables, replaced by a value Prometheus would see. */
const grafanaVariables = (expr: string): string => expr.replace(/\$__rate_interval|\$__interval/g, '5m');

export function dashboardFiles(): string[] {
  const dir = join(MONITORING_DIR, 'dashboards');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => join(dir, f));
}

export function ruleDocs(): RuleDoc[] {
  return readdirSync(MONITORING_DIR)
    .filter((f) => /\.ya?ml$/.test(f))
    .flatMap((f) => parseAllDocuments(readFileSync(join(MONITORING_DIR, f), 'utf8')).map((d) => d.toJS() as RuleDoc))
    .filter((d) => d?.kind === 'PrometheusRule');
}

/** Every PromQL expression of the dashboards and the PrometheusRules in k8s/monitoring. */
export function monitoringExpressions(): Expression[] {
  const panels = dashboardFiles().flatMap((file) => {
    const dashboard = JSON.parse(readFileSync(file, 'utf8')) as { title: string; panels: Panel[] };
    return dashboard.panels.flatMap((p) =>
      (p.targets ?? []).map((t) => ({ where: `${dashboard.title} / ${p.title}`, expr: grafanaVariables(t.expr) })),
    );
  });
  const rules = ruleDocs().flatMap((doc) =>
    doc.spec.groups.flatMap((g) =>
      g.rules.map((r) => ({ where: `${doc.metadata.name} / ${r.alert ?? r.record}`, expr: String(r.expr) })),
    ),
  );
  return [...panels, ...rules];
}

/** Positions where the PromQL parser found a syntax error (empty: the expression parses). */
export function syntaxErrors(expr: string): number[] {
  const errors: number[] = [];
  const cursor = parser.parse(expr).cursor();
  do {
    if (cursor.type.isError) errors.push(cursor.from);
  } while (cursor.next());
  return errors;
}

/** The metrics an expression selects, each with the app its selector is pinned to by `app="…"`. */
export function metricUses(expr: string): MetricUse[] {
  const uses: MetricUse[] = [];
  const cursor = parser.parse(expr).cursor();
  do {
    if (cursor.name !== 'VectorSelector') continue;
    const selector = cursor.node;
    const id = selector.getChild('Identifier');
    if (!id) continue;
    const matchers = expr.slice(id.to, selector.to);
    const app = /\bapp="([^"]*)"/.exec(matchers)?.[1];
    uses.push({ name: expr.slice(id.from, id.to), ...(app !== undefined ? { app } : {}) });
  } while (cursor.next());
  return uses;
}

/**
 * The sample names a /metrics page can answer: each family of its `# TYPE` lines (present before the first
 * observation), with the series a histogram or a summary adds.
 */
export function servedNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name);
    if (type === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(name + s);
    if (type === 'summary') for (const s of ['_sum', '_count']) names.add(name + s);
  }
  return names;
}
