import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { CodeBlock, codeBlocks } from '../support/markdown';
import { ADMIN_TOKEN, TestStack } from '../support/stack';
import { until } from '../support/wait';

jest.setTimeout(180_000);

const ROOT = resolve(__dirname, '../..');
const run = promisify(execFile);

/** The documents whose examples are marked `<!-- example: name -->`, each maybe followed by `<!-- output: name -->`. */
const DOCUMENTS = ['docs/api.md', 'docs/operations.md'];

interface Example {
  doc: string;
  script: string;
  /** The answer the document shows, when it shows one. */
  output?: CodeBlock;
}

function examples(): Map<string, Example> {
  const found = new Map<string, Example>();
  for (const doc of DOCUMENTS) {
    const blocks = codeBlocks(readFileSync(join(ROOT, doc), 'utf8'));
    for (const block of blocks) {
      const example = /^<!-- example: ([\w-]+) -->$/.exec(block.before)?.[1];
      if (example) found.set(example, { doc, script: block.text });
    }
    for (const block of blocks) {
      const output = /^<!-- output: ([\w-]+) -->$/.exec(block.before)?.[1];
      if (output) found.get(output)!.output = block;
    }
  }
  return found;
}

/**
 * curl as the documents call it, except that a non-2xx answer fails the command and, by `set -e`, the script,
 * with the answer on stderr for the failure message.
 */
const CURL_WRAPPER = `curl() {
  local out
  out=$(command curl --fail-with-body "$@") || { echo "curl $*: $out" >&2; return 22; }
  printf '%s\\n' "$out"
}`;

/**
 * The documented examples of the developer-facing behaviour issue #51 asked for, run as written (bash, curl
 * and jq) against a started stack, each as a fresh merchant with its own sandbox key and clock.
 */
describe('the examples in docs/', () => {
  const all = examples();
  let stack: TestStack;

  beforeAll(async () => {
    // A sandbox clock advance runs every service's due work; the periodic loops stay off, as a quiet sandbox is.
    stack = await TestStack.start({
      services: ['payments', 'payment-links', 'billing'],
      env: { RENEWAL_POLL_MS: '0', ACCOUNT_UPDATER_POLL_MS: '0' },
    });
  });
  afterAll(async () => stack?.stop());

  /** Runs one example's script as a new merchant would, with `edit` applied to its text; answers its stdout. */
  async function runExample(name: string, edit: (script: string) => string = (s) => s) {
    const example = all.get(name);
    if (!example) throw new Error(`no example "${name}" in ${DOCUMENTS.join(', ')}`);
    const merchant = await stack.merchant();
    const { key } = await stack.key([merchant]);
    const script = ['set -euo pipefail', CURL_WRAPPER, edit(example.script)].join('\n');
    const env = {
      PATH: process.env.PATH,
      API: stack.url,
      ADMIN_API: stack.adminUrl,
      ADMIN_TOKEN,
      MERCHANT: merchant,
      KEY: key,
    };
    const { stdout } = await run('bash', ['-c', script], { env, timeout: 120_000 }).catch(
      (e: { code: number; stdout: string; stderr: string }) => {
        throw new Error(`example ${name} of ${example.doc} failed (exit ${e.code}):\n${e.stderr}\n${e.stdout}`);
      },
    );
    return { stdout, example, key };
  }

  it('finds every example this file runs', () => {
    expect([...all.keys()].sort()).toEqual(['account-updater', 'frictionless-3ds', 'routing-connections']);
  });

  it('frictionless-3ds (api.md): the payment answers the 3DS result as documented, with no challenge', async () => {
    const { stdout, example } = await runExample('frictionless-3ds');
    expect(JSON.parse(stdout)).toEqual(JSON.parse(example.output!.text));
  });

  it('routing-connections (operations.md): 201 new, 200 replaced, the default last, one cascade hop', async () => {
    const { stdout, example } = await runExample('routing-connections');
    expect(stdout.trim()).toBe(example.output!.text.trim());
  });

  /** The subscription line, and the events after the enrolment, oldest first, as [time, type]. */
  async function updaterRun(card: string) {
    const { stdout, key } = await runExample('account-updater', (s) => s.replace(/^CARD=\d+/m, `CARD=${card}`));
    const [subscription, ...eventLines] = stdout.trim().split('\n');
    const events = eventLines.map((l) => l.split(' ') as [string, string]);
    return { subscription: JSON.parse(subscription), events, key };
  }

  const typesAfter = (events: Array<[string, string]>, type: string) => {
    const i = events.findIndex(([, t]) => t === type);
    return i < 0 ? [] : events.slice(i).map(([, t]) => t);
  };

  it('account-updater (api.md), new_expiry: the updated card pays the renewal; the update is listed before it', async () => {
    const { subscription, events } = await updaterRun('4000000000004202');
    expect(subscription).toEqual({ status: 'active', waitingFor: null, lastRefusal: null });
    const after = typesAfter(events, 'payment_method.updated');
    expect(after.slice(0, 1)).toEqual(['payment_method.updated']);
    expect(after).toEqual(
      expect.arrayContaining(['payment.captured', 'invoice.created', 'invoice.paid', 'subscription.renewed']),
    );
    const at = (type: string) => Date.parse(events.filter(([, t]) => t === type).pop()![0]);
    // 7 days apart, to the moment the advance ran the check (milliseconds of real time pass during it).
    expect(Math.abs(at('subscription.renewed') - at('payment_method.updated') - 7 * 86_400_000)).toBeLessThan(1000);
  });

  it('account-updater (api.md), no_information: the expired card is declined 54 at the renewal', async () => {
    const { subscription, events } = await updaterRun('4000000000004509');
    expect(subscription).toEqual({ status: 'past_due', waitingFor: 'scheduled_retry', lastRefusal: '54' });
    const after = typesAfter(events, 'payment_method.expiring');
    expect(after).toEqual(
      expect.arrayContaining(['payment.refused', 'subscription.payment_failed', 'subscription.past_due']),
    );
    expect(after).not.toContain('invoice.failed');
  });

  it('account-updater (api.md), closed: nothing is charged, yet payment_failed and past_due are emitted', async () => {
    const { subscription, events, key } = await updaterRun('4000000000004400');
    expect(subscription).toEqual({ status: 'past_due', waitingFor: 'payment_method', lastRefusal: '46' });
    const after = typesAfter(events, 'payment_method.expiring');
    expect(after).toEqual(
      expect.arrayContaining(['invoice.created', 'subscription.payment_failed', 'subscription.past_due']),
    );
    expect(after.filter((t) => t.startsWith('payment.') || t === 'invoice.failed')).toEqual([]);
    // The subscription shows the id its merchant-initiated charges cite: the enrolment payment's.
    const payments = await until(
      async () => (await stack.http('GET', '/v1/events?type=payment.captured', { key })).body as any[],
      (list) => list.length > 0,
    );
    const subscriptions = await stack.http('GET', '/v1/subscription', { key });
    expect(subscriptions.body[0].networkTransactionId).toBe(payments[0].data.card.networkTransactionId);
  });
});
