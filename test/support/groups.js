'use strict';
/**
 * Test files that run together, in one Jest file per folder (`<folder>/group.e2e-spec.ts`). Jest gives every
 * test file a fresh module registry, so each file loads Nest, TypeORM and the apps anew (about 1.3 s of CPU
 * before its first test); the files of a group load them once. Each file still starts its own stack and keeps
 * its own hooks: it runs inside a `describe` named after it. A file runs alone when it is named on the command
 * line (`npx jest test/payments/purchase.e2e-spec.ts`); in a run that includes its group, it runs in the group
 * only (test/support/sequencer.js).
 *
 * Left out of groups, and so run in files of their own: tests of child processes, browsers and process-wide
 * state (tracing, pg's Client prototype, process warnings), and the longest files, which balance the workers.
 * A new test file runs alone until it is listed here. `timeoutMs`: one timeout for the whole group, the largest
 * its files set (`jest.setTimeout`).
 */
const GROUPS = {
  'test/billing': {
    timeoutMs: 180_000,
    files: [
      'account-updater',
      'bad-input',
      'dunning-time',
      'exports',
      'idempotency',
      'plans',
      'recovery-metrics',
      'recovery-policy',
      'renewal-rolling-upgrade',
      'renewal-routing',
      'renewals-time',
      'subscription-changes',
      'subscription-create',
      'subscription-declines',
      'subscription-lifecycle',
      'usage',
      'usage-poison',
      'usage-rating',
      'usage-time',
    ],
  },
  'test/dashboard': {
    timeoutMs: 60_000,
    files: [
      'audit-log',
      'dashboard-mail',
      'dashboard-replay',
      'dashboard-roles',
      'dashboard-session',
      'dashboard-team',
      'dashboard-totp',
    ],
  },
  'test/events': { timeoutMs: 60_000, files: ['events', 'events-stream-limits'] },
  'test/foundation': {
    timeoutMs: 60_000,
    files: [
      'admin-cli',
      'auth',
      'auth-limits',
      'command-server',
      'edge',
      'gateway-key-ring',
      'gathered-rows',
      'ignored-fields-header',
      'internal-port',
      'loops',
      'migrate-entry',
      'migrations',
      'openapi-errors',
      'outbox',
      'queue-claim',
      'readiness',
      'resilience',
      'surface-migrations',
      'text-limits',
      'unstorable-text',
    ],
  },
  'test/idempotency': {
    timeoutMs: 120_000,
    files: ['every-route', 'idempotency-library', 'idempotency-upgrade'],
  },
  'test/payment-links': { timeoutMs: 60_000, files: ['card-testing', 'checkout', 'links', 'subscription-links'] },
  'test/payments': {
    timeoutMs: 60_000,
    files: [
      'acquirer-failure',
      'acquirer-latency',
      'address-aliases',
      'concurrency',
      'connection-health',
      'connections',
      'connector-flows',
      'events',
      'hold-expiry',
      'idempotency',
      'inquiry',
      'keyless-inquiry',
      'keyless-inquiry-walk',
      'operations',
      'purchase',
      'purchase-many',
      'search',
      'recovery',
      'routing',
      'test-cards',
      'wire-fixes',
    ],
  },
  'test/payments-extras': {
    timeoutMs: 60_000,
    files: ['apm', 'no-clear-card-data', 'nonce-payments', 'nonce-sweep', 'sdk', 'simulator-only', 'threeds', 'vault'],
  },
  'test/sandbox': { timeoutMs: 60_000, files: ['clock-work-bound', 'sandbox-clock'] },
  'test/webhooks': {
    timeoutMs: 90_000,
    files: [
      'delivery-errors',
      'endpoint-url-migration',
      'endpoints',
      'move-from-gateway',
      'payment-webhook-url',
      'provider-format',
      'recovery',
      'resilience',
      'secrets-at-rest',
      'ssrf',
    ],
  },
};

const GROUP_FILE = 'group.e2e-spec.ts';

/** Each group's folder, its Jest file and its members' paths, relative to the repository root. */
function groups() {
  return Object.entries(GROUPS).map(([folder, { timeoutMs, files }]) => ({
    folder,
    timeoutMs,
    file: `${folder}/${GROUP_FILE}`,
    members: files.map((f) => `${folder}/${f}.e2e-spec.ts`),
  }));
}

module.exports = { groups };
