import { ChildProcess, execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { constructWebhookEvent } from '../../clients/typescript/src';
import { codeBlocks } from '../support/markdown';
import { TestStack } from '../support/stack';
import { until } from '../support/wait';
import { WebhookReceiver, webhookStack } from '../support/webhook-receiver';

jest.setTimeout(180_000);

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'clients/cli/dist/cli/src/main.js');
const run = promisify(execFile);

/** The README's walk-through: its `payments …` command lines, in order. */
const README_COMMANDS = codeBlocks(readFileSync(join(ROOT, 'clients/cli/README.md'), 'utf8'))
  .filter((b) => b.before === '<!-- cli-example -->')
  .flatMap((b) => b.text.split('\n'))
  .filter((line) => line.startsWith('payments '))
  .map((line) => line.replace(/\s+#.*$/, ''));
const README_RECEIVER = 'http://localhost:4242/webhooks';

/** A README command as argv, with its receiver and event id put in. */
const readmeArgs = (command: string, url: string, eventId = ''): string[] =>
  command
    .replace(/^payments /, '')
    .split(/\s+/)
    .map((a) => (a === README_RECEIVER ? url : a === '$EVENT_ID' ? eventId : a));

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A merchant's plain-http receiver on 127.0.0.1, as a developer runs one on a laptop. */
async function receiver(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

/** The developer CLI run as a user runs it: built JavaScript, the key and base URL in the environment. */
describe('payments CLI against the running stack', () => {
  let stack: TestStack;
  let env: NodeJS.ProcessEnv;
  let local: Awaited<ReturnType<typeof receiver>>;
  let listener: ChildProcess | undefined;
  /** Where listen keeps its secret: a directory of this run, as ~/.config is a developer's. */
  const configHome = mkdtempSync(join(tmpdir(), 'payments-cli-'));
  let listenSecret = '';

  const cli = (...args: string[]) => run('node', [CLI, ...args], { env, cwd: ROOT });
  const failing = (...args: string[]) =>
    cli(...args).then(
      () => {
        throw new Error(`${args.join(' ')} succeeded`);
      },
      (e: { code: number; stderr: string }) => e,
    );

  beforeAll(async () => {
    await run(join(ROOT, 'node_modules/.bin/tsc'), ['-p', join(ROOT, 'clients/cli/tsconfig.json')]);
    stack = await webhookStack({ services: ['payments', 'billing'] });
    const merchantCode = await stack.merchant();
    const { key } = await stack.key([merchantCode]);
    env = { PATH: process.env.PATH, PAYMENTS_API_KEY: key, PAYMENTS_API_BASE: stack.url, XDG_CONFIG_HOME: configHome };
    local = await receiver();
  });
  afterAll(async () => {
    listener?.kill('SIGKILL');
    await stack?.stop();
    local?.server.close();
    rmSync(configHome, { recursive: true, force: true });
  });

  it('listen forwards each triggered event, signed with the secret it prints, and stops on Ctrl-C', async () => {
    const before = await cli('trigger', 'payment.captured');
    const oldPayment = /payment (\S+) captured/.exec(before.stdout)?.[1];
    const logged = await until(
      () => cli('events', 'list'),
      (r) => r.stdout.includes('payment.captured'),
    );
    expect(logged.stdout).toContain('payment.captured');

    let stdout = '';
    const listenCommand = README_COMMANDS.find((c) => c.startsWith('payments listen'))!;
    expect(listenCommand).toBe(`payments listen --forward-to ${README_RECEIVER}`);
    const listenArgs = [...readmeArgs(listenCommand, local.url), '--interval-ms', '200'];
    const child = spawn('node', [CLI, ...listenArgs], { env, cwd: ROOT });
    listener = child;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    await until(
      () => stdout,
      (s) => s.includes('Ready'),
    );
    const secret = /signing secret is (whsec_\S+)/.exec(stdout)?.[1] as string;
    expect(secret).toMatch(/^whsec_/);
    listenSecret = secret;
    // Kept for events resend, readable by its owner only.
    const kept = join(configHome, 'payments/listen-secret');
    expect(readFileSync(kept, 'utf8').trim()).toBe(secret);
    expect(statSync(kept).mode & 0o777).toBe(0o600);

    const types = [
      'payment.captured',
      'payment.refunded',
      'payment.refused',
      'subscription.created',
      'subscription.cancelled',
      'invoice.paid',
    ];
    for (const type of types) expect((await cli('trigger', type)).stdout).toContain(`Triggered ${type}`);

    const events = () => local.received.map((r) => constructWebhookEvent(r.body, r.headers, secret));
    const got = await until(
      () => events().map((e): string => e.type),
      (seen) => types.every((t) => seen.includes(t)),
      30_000,
    );
    expect(got).toEqual(expect.arrayContaining(types));
    // The CLI prints a line once the receiver's answer is back, which may be a moment after the receiver saw it.
    const lines = local.received.map((r) => {
      const event = constructWebhookEvent(r.body, r.headers, secret);
      expect(r.headers['webhook-id']).toBe(event.id);
      return `${event.id}  -> POST ${local.url} [200]`;
    });
    await until(
      () => stdout,
      (s) => lines.every((line) => s.includes(line)),
    );
    for (const line of lines) expect(stdout).toContain(line);
    // Events from before the start are not forwarded, and none is forwarded twice.
    expect(events().some((e) => (e.data as { id?: string }).id === oldPayment)).toBe(false);
    const ids = events().map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(() => constructWebhookEvent(local.received[0].body, local.received[0].headers, 'whsec_other')).toThrow();

    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stdout).toContain('Stopped');
    listener = undefined;
    const endpoints = await stack.http('GET', '/v1/webhook-endpoint', { key: env.PAYMENTS_API_KEY });
    expect(endpoints.body).toEqual([]);
  });

  it('events list shows the events, and resend --forward-to posts one again, signed', async () => {
    await cli('trigger', 'payment.captured');
    const listed = await until(
      () => cli('events', 'list', '--type', 'payment.captured', '--json'),
      (r) => (JSON.parse(r.stdout) as unknown[]).length > 0,
    );
    const [event] = JSON.parse(listed.stdout) as Array<{ id: string; type: string }>;
    expect(event.type).toBe('payment.captured');
    const lines = (await cli('events', 'list', '--limit', '5')).stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(5);

    const secret = 'whsec_cli_test_secret';
    const count = local.received.length;
    const out = await run('node', [CLI, 'events', 'resend', event.id, '--forward-to', local.url], {
      env: { ...env, PAYMENTS_WEBHOOK_SECRET: secret },
      cwd: ROOT,
    });
    expect(out.stdout).toContain(`${event.id}  -> POST ${local.url} [200]`);
    const got = local.received[count];
    expect(constructWebhookEvent(got.body, got.headers, secret)).toMatchObject({ id: event.id, type: event.type });

    // As the README runs it: no --secret, to a plain-http receiver, signed with the secret listen printed.
    const resend = README_COMMANDS.find((c) => c.startsWith('payments events resend'))!;
    expect(resend).not.toContain('--secret');
    expect(listenSecret).toMatch(/^whsec_/);
    const again = await cli(...readmeArgs(resend, local.url, event.id));
    expect(again.stdout).toContain(`${event.id}  -> POST ${local.url} [200]`);
    const last = local.received[local.received.length - 1];
    expect(constructWebhookEvent(last.body, last.headers, listenSecret)).toMatchObject({ id: event.id });

    // With no secret given and none kept: a usage error, naming what to do.
    const bare = await run('node', [CLI, 'events', 'resend', event.id, '--forward-to', local.url], {
      env: { ...env, XDG_CONFIG_HOME: join(configHome, 'empty') },
    }).catch((e: { code: number; stderr: string }) => e);
    expect(bare).toMatchObject({ code: 2, stderr: expect.stringContaining('--secret') });
  });

  it('events resend --webhook-endpoint has the platform send a failed delivery again at once', async () => {
    const https = await WebhookReceiver.start();
    try {
      https.failFirst(1);
      const endpoint = await stack.http('POST', '/v1/webhook-endpoint', {
        key: env.PAYMENTS_API_KEY,
        body: { url: https.url(), events: ['payment.refunded'] },
      });
      expect(endpoint.status).toBe(201);
      await cli('trigger', 'payment.refunded');
      const first = await until(
        () => https.received.length,
        (n) => n === 1,
      );
      expect(first).toBe(1);
      const eventId = https.received[0].headers['webhook-id'] as string;
      const out = await cli('events', 'resend', eventId, '--webhook-endpoint', endpoint.body.id);
      expect(out.stdout).toContain(`payment.refunded ${eventId} queued again for ${endpoint.body.id}`);
      // The next scheduled try is 30 s away: a second request within seconds is the resend.
      const statuses = await until(
        () => https.of(eventId).map((r) => r.status),
        (s) => s.join() === '500,200',
        10_000,
      );
      expect(statuses).toEqual([500, 200]);
      const missing = await failing('events', 'resend', randomUUID(), '--webhook-endpoint', endpoint.body.id);
      // Nothing to resend is an answer of the API, not a usage error: exit code 1, no help hint.
      expect(missing).toMatchObject({ code: 1, stderr: expect.stringContaining('has no delivery of event') });
      expect(missing.stderr).not.toContain('--help');
      const unknownEndpoint = await failing('events', 'resend', eventId, '--webhook-endpoint', randomUUID());
      expect(unknownEndpoint).toMatchObject({ code: 1, stderr: expect.stringContaining('The API answered 404') });
    } finally {
      await https.close();
    }
  });

  it('answers --help on every command, and a usage error with exit code 2', async () => {
    for (const args of [['--help'], ['listen', '--help'], ['trigger', '--help'], ['events', '--help']]) {
      expect((await cli(...args)).stdout).toMatch(/^Usage: payments/);
    }
    expect((await cli('trigger', '--help')).stdout).toContain('invoice.paid');
    const unknown = await failing('trigger', 'payment.nonsense');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No trigger for payment.nonsense');
    const noTarget = await failing('listen');
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr).toContain('--forward-to');
    const noKey = await run('node', [CLI, 'events', 'list'], { env: { PATH: process.env.PATH } }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(noKey).toMatchObject({ code: 2, stderr: expect.stringContaining('PAYMENTS_API_KEY') });
  });
});
