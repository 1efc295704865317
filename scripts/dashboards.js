#!/usr/bin/env node
// Writes the Grafana dashboards of k8s/monitoring/dashboards/ (one per app and an overview), which kustomize
// turns into the grafana-dashboards ConfigMap. `node scripts/dashboards.js --check` only compares.
const { readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const DIR = path.join(__dirname, '..', 'k8s/monitoring/dashboards');
const RATE = '$__rate_interval';
/** Service-side command status values that are the service's fault (the others are answers to bad input). */
const RPC_FAILED = 'error|INTERNAL_ERROR|SERVICE_UNAVAILABLE|UPSTREAM_TIMEOUT';

const sel = (labels) =>
  `{${Object.entries(labels)
    .map(([k, v]) => `${k}${v.startsWith('~') ? '=~' : v.startsWith('!') ? '!=' : '='}"${v.replace(/^[~!]/, '')}"`)
    .join(',')}}`;

/** One time-series panel; each target is [expr, legend]. */
function panel(title, unit, targets, description = '') {
  return { title, unit, description, targets: targets.map(([expr, legend]) => ({ expr, legend })) };
}

function httpPanels(app) {
  const m = sel({ app, method: '!webhook' });
  return [
    panel('Request rate by route', 'reqps', [
      [`sum by (method, route) (rate(requests_total${m}[${RATE}]))`, '{{method}} {{route}}'],
    ]),
    panel('Error rate by route (5xx share)', 'percentunit', [
      [
        `sum by (route) (rate(requests_total${sel({ app, method: '!webhook', status: '~5..' })}[${RATE}])) / sum by (route) (rate(requests_total${m}[${RATE}]))`,
        '{{route}}',
      ],
    ]),
    panel('Latency p99 by route', 's', [
      [
        `histogram_quantile(0.99, sum by (le, route) (rate(request_duration_seconds_bucket${m}[${RATE}])))`,
        '{{route}}',
      ],
    ]),
    panel('Latency p50 by route', 's', [
      [`histogram_quantile(0.5, sum by (le, route) (rate(request_duration_seconds_bucket${m}[${RATE}])))`, '{{route}}'],
    ]),
  ];
}

function commandPanels(app) {
  const m = sel({ app, method: 'rpc' });
  return [
    panel('NATS commands by subject', 'reqps', [[`sum by (route) (rate(requests_total${m}[${RATE}]))`, '{{route}}']]),
    panel('Failed commands by subject and status', 'reqps', [
      [
        `sum by (route, status) (rate(requests_total${sel({ app, method: 'rpc', status: `~${RPC_FAILED}` })}[${RATE}]))`,
        '{{route}} {{status}}',
      ],
    ]),
    panel('NATS command latency p99 by subject', 's', [
      [
        `histogram_quantile(0.99, sum by (le, route) (rate(request_duration_seconds_bucket${m}[${RATE}])))`,
        '{{route}}',
      ],
    ]),
    panel('NATS command latency p50 by subject', 's', [
      [`histogram_quantile(0.5, sum by (le, route) (rate(request_duration_seconds_bucket${m}[${RATE}])))`, '{{route}}'],
    ]),
  ];
}

function outboxPanels(app) {
  const a = sel({ app });
  return [
    panel('Outbox backlog (unpublished events)', 'short', [[`max(outbox_unpublished_events${a})`, 'unpublished']]),
    panel('Age of the oldest unpublished event', 's', [[`max(outbox_oldest_unpublished_age_seconds${a})`, 'oldest']]),
    panel('Events published by type', 'ops', [
      [`sum by (type) (rate(outbox_events_published_total${a}[${RATE}]))`, '{{type}}'],
    ]),
  ];
}

function runtimePanels(app) {
  const a = sel({ app });
  return [
    panel('Requests and commands in progress', 'short', [
      [`sum by (instance, method) (requests_in_progress${a})`, '{{instance}} {{method}}'],
    ]),
    panel('Database pool saturation (busy / size)', 'percentunit', [
      [
        `sum by (instance) (db_pool_connections${sel({ app, state: 'busy' })}) / sum by (instance) (db_pool_max_connections${a})`,
        '{{instance}}',
      ],
    ]),
    panel('Callers waiting for a database connection', 'short', [
      [`sum by (instance) (db_pool_waiting_clients${a})`, '{{instance}}'],
    ]),
    panel('Event loop lag p99', 's', [[`max by (instance) (nodejs_eventloop_lag_p99_seconds${a})`, '{{instance}}']]),
    panel('Memory', 'bytes', [
      [`sum by (instance) (process_resident_memory_bytes${a})`, 'rss {{instance}}'],
      [`sum by (instance) (nodejs_heap_size_used_bytes${a})`, 'heap used {{instance}}'],
    ]),
    panel('Readiness and dependencies', 'short', [
      [`min by (instance) (readiness_ready${a})`, 'ready {{instance}}'],
      [`min by (dependency) (dependency_up${a})`, 'up {{dependency}}'],
    ]),
    panel('Background loops: failed runs', 'ops', [
      [`sum by (loop) (rate(loop_failures_total${a}[${RATE}]))`, '{{loop}}'],
    ]),
    panel('Background loops: seconds since last success', 's', [
      [`max by (loop) (loop_last_success_age_seconds${a})`, '{{loop}}'],
    ]),
  ];
}

function webhookPanels() {
  const w = sel({ app: 'gateway', method: 'webhook' });
  return [
    panel('Webhook tries by outcome', 'ops', [[`sum by (status) (rate(requests_total${w}[${RATE}]))`, '{{status}}']]),
    panel('Webhook tries due and not sent (backlog)', 'short', [
      [`max(webhook_attempts_due${sel({ app: 'gateway' })})`, 'due'],
    ]),
    panel('Age of the earliest due webhook try', 's', [
      [`max(webhook_oldest_due_age_seconds${sel({ app: 'gateway' })})`, 'oldest'],
    ]),
    panel('Dead webhook deliveries (gave up), per hour', 'short', [
      [`sum(increase(requests_total${sel({ app: 'gateway', method: 'webhook', status: 'dead' })}[1h]))`, 'dead'],
    ]),
    panel('Webhook receiver latency p99', 's', [
      [`histogram_quantile(0.99, sum by (le) (rate(request_duration_seconds_bucket${w}[${RATE}])))`, 'p99'],
    ]),
  ];
}

function gatewayEdgePanels() {
  const a = sel({ app: 'gateway' });
  return [
    panel(
      'NATS command latency p99 by service',
      's',
      [
        [
          `histogram_quantile(0.99, sum by (le, app) (rate(request_duration_seconds_bucket${sel({ method: 'rpc' })}[${RATE}])))`,
          '{{app}}',
        ],
      ],
      'How long the services take to answer the commands the gateway sends them (measured in each service)',
    ),
    panel('Requests refused by the abuse limits', 'ops', [
      [`sum(rate(auth_attempts_blocked_total${a}[${RATE}]))`, 'failed authentication'],
      [`sum by (scope) (rate(checkout_attempts_blocked_total${a}[${RATE}]))`, 'checkout declines ({{scope}})'],
    ]),
  ];
}

function billingPanels() {
  const b = sel({ app: 'billing' });
  const dunning = 'subscription.(payment_failed|past_due|suspended|reactivated)|invoice.(paid|failed)';
  return [
    panel('Renewals due vs done', 'short', [
      [`max(billing_renewals_due${b})`, 'due now, not done'],
      [
        `sum(increase(outbox_events_published_total${sel({ app: 'billing', type: 'subscription.renewed' })}[5m]))`,
        'renewed (5 min)',
      ],
    ]),
    panel('Age of the earliest renewal still due', 's', [
      [`max(billing_renewal_oldest_due_age_seconds${b})`, 'oldest'],
    ]),
    panel('Dunning outcomes', 'ops', [
      [
        `sum by (type) (rate(outbox_events_published_total${sel({ app: 'billing', type: `~${dunning}` })}[${RATE}]))`,
        '{{type}}',
      ],
    ]),
    panel('Renewal loop runs and failures', 'ops', [
      [`sum(rate(loop_runs_total${sel({ app: 'billing', loop: 'renewal' })}[${RATE}]))`, 'runs'],
      [`sum(rate(loop_failures_total${sel({ app: 'billing', loop: 'renewal' })}[${RATE}]))`, 'failures'],
    ]),
    ...recoveryPanels(),
  ];
}

/** Revenue recovery (docs/operations.md): money recovered, and recovery rates by refusal reason and connection. */
function recoveryPanels() {
  const b = sel({ app: 'billing' });
  const window = '1d';
  return [
    panel(
      'Revenue recovered by dunning (minor units per day)',
      'short',
      [[`sum by (currency) (increase(billing_dunning_recovered_amount_total${b}[${window}]))`, '{{currency}}']],
      'Amounts of past-due invoices paid (retries and new cards), in minor units of each currency',
    ),
    panel(
      'Recovery rate by refusal reason',
      'percentunit',
      [
        [
          `sum by (reason) (increase(billing_dunning_recovered_total${b}[${window}])) / sum by (reason) (increase(billing_dunning_runs_started_total${b}[${window}]))`,
          '{{reason}}',
        ],
      ],
      'Past-due invoices paid / dunning runs started, by the refusal reason that started the run (over a day)',
    ),
    panel(
      'Recovery rate by connection',
      'percentunit',
      [
        [
          `sum by (connection) (increase(billing_dunning_retries_total${sel({ app: 'billing', outcome: 'approved' })}[${window}])) / sum by (connection) (increase(billing_dunning_retries_total${b}[${window}]))`,
          '{{connection}}',
        ],
      ],
      'Approved share of the charges of past-due invoices, by the connection that answered (over a day)',
    ),
  ];
}

function overviewPanels() {
  const g = sel({ app: 'gateway', method: '!webhook' });
  return [
    panel('Gateway request rate', 'reqps', [[`sum(rate(requests_total${g}[${RATE}]))`, 'requests']]),
    panel('Gateway error rate (5xx share)', 'percentunit', [
      [
        `sum(rate(requests_total${sel({ app: 'gateway', method: '!webhook', status: '~5..' })}[${RATE}])) / sum(rate(requests_total${g}[${RATE}]))`,
        '5xx',
      ],
    ]),
    panel('Gateway latency p99 and p50', 's', [
      [`histogram_quantile(0.99, sum by (le) (rate(request_duration_seconds_bucket${g}[${RATE}])))`, 'p99'],
      [`histogram_quantile(0.5, sum by (le) (rate(request_duration_seconds_bucket${g}[${RATE}])))`, 'p50'],
    ]),
    panel('NATS command latency p99 by service', 's', [
      [
        `histogram_quantile(0.99, sum by (le, app) (rate(request_duration_seconds_bucket${sel({ method: 'rpc' })}[${RATE}])))`,
        '{{app}}',
      ],
    ]),
    panel('Failed commands by service', 'reqps', [
      [`sum by (app) (rate(requests_total${sel({ method: 'rpc', status: `~${RPC_FAILED}` })}[${RATE}]))`, '{{app}}'],
    ]),
    panel('Outbox: oldest unpublished event by app', 's', [
      [`max by (app) (outbox_oldest_unpublished_age_seconds)`, '{{app}}'],
    ]),
    panel('Outbox backlog by app', 'short', [[`max by (app) (outbox_unpublished_events)`, '{{app}}']]),
    panel('Webhooks: backlog, failures and dead deliveries', 'short', [
      [`max(webhook_attempts_due)`, 'due, not sent'],
      [`sum(increase(requests_total${sel({ method: 'webhook', status: 'failed' })}[5m]))`, 'failed tries (5 min)'],
      [`sum(increase(requests_total${sel({ method: 'webhook', status: 'dead' })}[1h]))`, 'dead (1 h)'],
    ]),
    panel('Renewals due vs done', 'short', [
      [`max(billing_renewals_due)`, 'due now, not done'],
      [`sum(increase(outbox_events_published_total${sel({ type: 'subscription.renewed' })}[5m]))`, 'renewed (5 min)'],
    ]),
    panel('Dunning outcomes', 'ops', [
      [
        `sum by (type) (rate(outbox_events_published_total${sel({ type: '~subscription.(payment_failed|suspended|reactivated)' })}[${RATE}]))`,
        '{{type}}',
      ],
    ]),
    panel('Database pool saturation by app', 'percentunit', [
      [
        `max by (app) (db_pool_connections${sel({ state: 'busy' })} / ignoring(state) db_pool_max_connections)`,
        '{{app}}',
      ],
    ]),
    panel('Event loop lag p99 by app', 's', [[`max by (app) (nodejs_eventloop_lag_p99_seconds)`, '{{app}}']]),
    panel('Memory (RSS) by app', 'bytes', [[`max by (app) (process_resident_memory_bytes)`, '{{app}}']]),
    panel('Readiness transitions and dependencies down', 'short', [
      [`sum by (app) (increase(readiness_transitions_total[15m]))`, 'transitions {{app}}'],
      [`count by (app, dependency) (dependency_up == 0)`, 'down {{app}} {{dependency}}'],
    ]),
  ];
}

const DASHBOARDS = {
  overview: { title: 'Payments platform: overview', panels: overviewPanels() },
  gateway: {
    title: 'Payments platform: gateway',
    panels: [
      ...httpPanels('gateway'),
      ...webhookPanels(),
      ...gatewayEdgePanels(),
      ...outboxPanels('gateway'),
      ...runtimePanels('gateway'),
    ],
  },
  payments: {
    title: 'Payments platform: payments',
    panels: [...commandPanels('payments'), ...outboxPanels('payments'), ...runtimePanels('payments')],
  },
  'payment-links': {
    title: 'Payments platform: payment-links',
    panels: [...commandPanels('payment-links'), ...outboxPanels('payment-links'), ...runtimePanels('payment-links')],
  },
  billing: {
    title: 'Payments platform: billing',
    panels: [...commandPanels('billing'), ...billingPanels(), ...outboxPanels('billing'), ...runtimePanels('billing')],
  },
};

/** The Grafana JSON model of one dashboard: two panels a row, a Prometheus data source chosen by a variable. */
function dashboard(uid, { title, panels }) {
  const datasource = { type: 'prometheus', uid: '${datasource}' };
  return {
    uid: `payments-${uid}`,
    title,
    tags: ['payments-platform'],
    timezone: 'utc',
    schemaVersion: 39,
    version: 1,
    refresh: '30s',
    time: { from: 'now-6h', to: 'now' },
    templating: {
      list: [{ name: 'datasource', label: 'Data source', type: 'datasource', query: 'prometheus', current: {} }],
    },
    panels: panels.map((p, i) => ({
      id: i + 1,
      type: 'timeseries',
      title: p.title,
      ...(p.description ? { description: p.description } : {}),
      datasource,
      gridPos: { h: 8, w: 12, x: (i % 2) * 12, y: Math.floor(i / 2) * 8 },
      fieldConfig: { defaults: { unit: p.unit }, overrides: [] },
      options: { legend: { displayMode: 'list', placement: 'bottom' }, tooltip: { mode: 'multi' } },
      targets: p.targets.map((t, j) => ({
        refId: String.fromCharCode(65 + j),
        datasource,
        expr: t.expr,
        legendFormat: t.legend,
      })),
    })),
  };
}

const check = process.argv.includes('--check');
const stale = [];
for (const [name, spec] of Object.entries(DASHBOARDS)) {
  const file = path.join(DIR, `${name}.json`);
  const text = `${JSON.stringify(dashboard(name, spec), null, 2)}\n`;
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // written below
  }
  if (current === text) continue;
  if (check) stale.push(path.relative(process.cwd(), file));
  else writeFileSync(file, text);
}
if (stale.length) {
  console.error(`stale dashboards (run node scripts/dashboards.js): ${stale.join(', ')}`);
  process.exit(1);
}
