import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { EventTypes } from '@app/contracts';
import { constructWebhookEvent } from '../../clients/typescript/src';
import { TestStack } from '../support/stack';
import { until } from '../support/wait';
import { emit } from '../webhooks/emit';

jest.setTimeout(120_000);

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'clients/cli/dist/cli/src/main.js');
const run = promisify(execFile);

interface Local {
  server: Server;
  url: string;
  received: Array<{ headers: IncomingHttpHeaders; body: string }>;
}

/** A plain-http receiver on 127.0.0.1 answering `status` (with `location` on a redirect). */
async function local(status = 200, location?: string): Promise<Local> {
  const received: Local['received'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status, location ? { location } : {}).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

/** #45 item 7: `payments listen` (and `events resend --forward-to`) cannot leak production data by accident. */
describe('payments CLI forwarding: production keys, redirects, secrets off the command line', () => {
  let stack: TestStack;
  let merchant: string;
  let sandboxKey: string;
  let productionKey: string;
  let target: Local;
  let redirecting: Local;
  let listener: ChildProcess | undefined;

  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    PAYMENTS_API_KEY: sandboxKey,
    PAYMENTS_API_BASE: stack.url,
    ...extra,
  });
  const failing = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
    run('node', [CLI, ...args], { env: env(extra), cwd: ROOT }).then(
      () => {
        throw new Error(`${args.join(' ')} succeeded`);
      },
      (e: { code: number; stdout: string; stderr: string }) => e,
    );

  beforeAll(async () => {
    await run(join(ROOT, 'node_modules/.bin/tsc'), ['-p', join(ROOT, 'clients/cli/tsconfig.json')]);
    stack = await TestStack.start({ services: [] });
    merchant = await stack.merchant();
    sandboxKey = (await stack.key([merchant])).key;
    productionKey = (await stack.key([merchant], 'private', 'production')).key;
    target = await local();
    redirecting = await local(307, target.url);
  });
  afterAll(async () => {
    listener?.kill('SIGKILL');
    await stack?.stop();
    target?.server.close();
    redirecting?.server.close();
  });

  it('listen and events resend refuse a production key without --allow-production (exit 2, nothing sent)', async () => {
    const production = { PAYMENTS_API_KEY: productionKey };
    const refused = await failing(['listen', '--forward-to', target.url], production);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('production key');
    expect(refused.stderr).toContain('--allow-production');
    const resend = await failing(
      ['events', 'resend', '0193b000-0000-7000-8000-000000000000', '--forward-to', target.url],
      { ...production, PAYMENTS_WEBHOOK_SECRET: 'whsec_local' },
    );
    expect(resend.code).toBe(2);
    expect(resend.stderr).toContain('--allow-production');
    expect(target.received).toEqual([]);

    // Told explicitly, it starts, and says so on stderr.
    let stdout = '';
    let stderr = '';
    const child = spawn('node', [CLI, 'listen', '--forward-to', target.url, '--allow-production'], {
      env: env(production),
      cwd: ROOT,
    });
    listener = child;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    await until(
      () => stdout,
      (s) => s.includes('Ready'),
    );
    expect(stderr).toContain('PRODUCTION');
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    listener = undefined;
  });

  it('--secret on the command line is refused with how to pass it instead', async () => {
    for (const args of [
      ['listen', '--forward-to', target.url, '--secret', 'whsec_visible_in_ps'],
      ['events', 'resend', '0193b000-0000-7000-8000-000000000000', '--forward-to', target.url, '--secret', 'x'],
    ]) {
      const r = await failing(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--secret is no longer accepted');
      expect(r.stderr).toContain('PAYMENTS_WEBHOOK_SECRET');
      expect(r.stderr).toContain('--secret-file');
    }
  });

  it('listen signs with the secret of PAYMENTS_WEBHOOK_SECRET, never prints it, and does not follow a redirect', async () => {
    const secret = 'whsec_from_the_environment_0123456789';
    let stdout = '';
    const child = spawn('node', [CLI, 'listen', '--forward-to', redirecting.url, '--interval-ms', '200'], {
      env: env({ PAYMENTS_WEBHOOK_SECRET: secret }),
      cwd: ROOT,
    });
    listener = child;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    await until(
      () => stdout,
      (s) => s.includes('Ready'),
    );
    expect(stdout).toContain('Signing with the secret from PAYMENTS_WEBHOOK_SECRET');
    expect(stdout).not.toContain(secret);

    const event = await emit(stack.gateway!, EventTypes.paymentCaptured, merchant, { id: 'pay_redirect' });
    await until(
      () => stdout,
      (s) => s.includes(event.id),
      30_000,
    );
    expect(stdout).toContain(`${event.id}  -> POST ${redirecting.url} [307, redirect not followed]`);
    expect(redirecting.received).toHaveLength(1);
    const got = redirecting.received[0];
    expect(constructWebhookEvent(got.body, got.headers, secret)).toMatchObject({ id: event.id });
    // The redirect's target never saw the signed event.
    expect(target.received).toEqual([]);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    listener = undefined;
  });

  it('events resend --forward-to signs with the secret of --secret-file', async () => {
    const event = await emit(stack.gateway!, EventTypes.paymentCaptured, merchant, { id: 'pay_file' });
    const secret = 'whsec_from_a_file_0123456789';
    const file = join(mkdtempSync(join(tmpdir(), 'cli-secret-')), 'secret');
    writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    const out = await until(
      () =>
        run('node', [CLI, 'events', 'resend', event.id, '--forward-to', target.url, '--secret-file', file], {
          env: env(),
          cwd: ROOT,
        }).catch((e: { stderr: string }) => ({ stdout: '', stderr: e.stderr })),
      (r) => r.stdout.includes('[200]'),
    );
    expect(out.stdout).toContain(`${event.id}  -> POST ${target.url} [200]`);
    const got = target.received.at(-1)!;
    expect(constructWebhookEvent(got.body, got.headers, secret)).toMatchObject({ id: event.id });
    const missing = await failing([
      'events',
      'resend',
      event.id,
      '--forward-to',
      target.url,
      '--secret-file',
      '/nonexistent/secret',
    ]);
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringContaining('cannot read /nonexistent/secret') });
  });
});
