import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import * as ts from 'typescript';
import { codeBlocks } from '../support/markdown';
import { ADMIN_TOKEN, TestStack } from '../support/stack';
import { until } from '../support/wait';

jest.setTimeout(120_000);

const ROOT = resolve(__dirname, '../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const run = promisify(execFile);

/** The README's quickstart: its curl blocks in order, and its TypeScript example. */
const blocks = codeBlocks(README);
const commands = blocks.filter((b) => b.before === '<!-- quickstart -->').map((b) => b.text);
const example = blocks.find((b) => b.before === '<!-- quickstart-ts -->');

/**
 * curl as the README's commands call it, plus: a non-2xx answer fails the command (and, through `set -e` and
 * `pipefail`, the script), and each answer's status goes to stderr for the test to count.
 */
const CURL_WRAPPER = `curl() { command curl --fail-with-body -w '%{stderr}HTTP %{http_code} %{method} %{url_effective}\\n' "$@"; }`;

/** The TypeScript example as a module: the client from this repository, its statements in `main()`. */
function exampleModule(source: string): string {
  const lines = source.replace(/from '@payments-platform\/client'/, "from '../../clients/typescript/src'").split('\n');
  const imports = lines.filter((l) => l.startsWith('import '));
  const body = lines.filter((l) => !l.startsWith('import '));
  return [...imports, 'export async function main(): Promise<void> {', ...body, '}', ''].join('\n');
}

/** Type errors of a file, checked as the repository's tsconfig checks code (strict). */
function typeErrors(file: string): string[] {
  const { config } = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
  const program = ts.createProgram([file], { ...options, noEmit: true, incremental: false, skipLibCheck: true });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === file)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('the README quickstart', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['payments', 'billing'] });
  });
  afterAll(async () => stack?.stop());

  it('is in the README: curl blocks for the admin API, a purchase, a refund, a plan, a subscription, events and a dashboard invitation', () => {
    const all = commands.join('\n');
    for (const route of [
      '$ADMIN_API/v1/admin/merchants',
      '$ADMIN_API/v1/admin/keys',
      '$API/v1/payment/purchase',
      '/refund',
      '$API/v1/subscription/plan',
      '$API/v1/subscription"',
      '$API/v1/events',
      '$ADMIN_API/v1/admin/dashboard-users',
    ]) {
      expect(all).toContain(route);
    }
    expect(example?.lang).toBe('ts');
  });

  let key = '';

  it('runs as written against the started stack, every request answering 2xx', async () => {
    const script = ['set -euo pipefail', CURL_WRAPPER, ...commands].join('\n');
    const { stdout, stderr } = await run('bash', ['-c', script], {
      env: { PATH: process.env.PATH, API: stack.url, ADMIN_API: stack.adminUrl, ADMIN_TOKEN },
      timeout: 60_000,
    }).catch((e: { code: number; stdout: string; stderr: string }) => {
      throw new Error(`quickstart failed (exit ${e.code}):\n${e.stderr}\n${e.stdout}`);
    });
    const statuses = [...stderr.matchAll(/^HTTP (\d{3}) (\S+) (\S+)$/gm)].map((m) => `${m[1]} ${m[2]} ${m[3]}`);
    const curls = commands.join('\n').match(/(^|[\s$(])curl\s/g) ?? [];
    expect(statuses).toHaveLength(curls.length);
    expect(statuses.filter((s) => !/^2\d\d /.test(s))).toEqual([]);
    expect(stdout).toContain('"status": "captured"');
    expect(stdout).toContain('"status": "refunded"');
    expect(stdout).toContain('"status": "active"');
    key = /prv_sandbox_\w+/.exec(stdout)?.[0] ?? '';
    expect(key).not.toBe('');
    // The last step prints the dashboard invitation to open: the gateway's page with the token in the fragment.
    const invite = /^(\S+)\/dashboard\/#\/invite\/(\S+)$/m.exec(stdout);
    expect(invite?.[2]).toMatch(/^[\w-]{20,}$/);
    const page = await stack.http('GET', '/dashboard/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');

    // What step 4 shows once the events have reached the list.
    const types = await until(
      async () =>
        ((await stack.http('GET', '/v1/events?limit=10', { key })).body as Array<{ type: string }>).map((e) => e.type),
      (t) => ['payment.captured', 'payment.refunded', 'subscription.created'].every((x) => t.includes(x)),
    );
    expect(types).toEqual(expect.arrayContaining(['payment.captured', 'payment.refunded', 'subscription.created']));
  });

  it('its TypeScript example type-checks against the client and runs through it', async () => {
    expect(key).not.toBe('');
    const dir = join(ROOT, 'test-output/quickstart');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'readme-example.ts');
    writeFileSync(file, exampleModule(example!.text));
    expect(typeErrors(file)).toEqual([]);

    const logged: unknown[][] = [];
    const log = jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logged.push(args));
    const saved = { KEY: process.env.KEY, API: process.env.API };
    Object.assign(process.env, { KEY: key, API: stack.url });
    try {
      await (require(file) as { main: () => Promise<void> }).main();
    } finally {
      log.mockRestore();
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    expect(logged).toHaveLength(1);
    expect(logged[0].slice(0, 3)).toEqual(['captured', 'refunded', 'active']);
  });
});
