import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppProcess, ADMIN_TOKEN, ensureBuild, ProcessSuite, ROOT } from '../support/processes';
import { selfSignedCert, WebhookReceiver } from '../support/webhook-receiver';
import { until } from '../support/wait';
import { paymentBody } from '../payments/payments-fixtures';

jest.setTimeout(180_000);

/** host:port of a URL, as a socket connects to it, under each name the app may use for it. */
const addressesOf = (url: string, defaultPort: number): string[] => {
  const u = new URL(url);
  const port = u.port || String(defaultPort);
  const host = u.hostname || 'localhost';
  return [`${host}:${port}`, ...(['localhost', '127.0.0.1'].includes(host) ? ['localhost', '127.0.0.1'] : [])].map(
    (h) => (h.includes(':') ? h : `${h}:${port}`),
  );
};

/**
 * Issue 35, item 2: the pod that faces the internet does not call out to it. The gateway runs as a process
 * whose every outbound connection other than to NATS and its database is refused and written down, while
 * webhooks reach a receiver; the webhooks process, guarded the same way but only recording, shows the guard
 * sees deliveries where they are made.
 */
describe('webhook deliveries leave from the webhooks service, never from the gateway', () => {
  let suite: ProcessSuite;
  let receiver: WebhookReceiver;
  let gateway: AppProcess;
  const dir = mkdtempSync(join(tmpdir(), 'egress-'));
  const gatewayLog = join(dir, 'gateway.log');
  const webhooksLog = join(dir, 'webhooks.log');

  beforeAll(async () => {
    ensureBuild();
    receiver = await WebhookReceiver.start();
    const caFile = join(dir, 'receiver-ca.pem');
    writeFileSync(caFile, selfSignedCert().cert);
    suite = await ProcessSuite.start({ apps: ['gateway', 'payments', 'webhooks'] });
    const allow = [
      ...addressesOf(String(suite.env.NATS_URL), 4222),
      ...addressesOf(suite.databaseUrl('gateway'), 5432),
      ...addressesOf(suite.databaseUrl('webhooks'), 5432),
    ].join(',');
    const guard = (log: string, mode: 'refuse' | 'record') => ({
      NODE_OPTIONS: `--max-old-space-size=128 --require ${join(ROOT, 'test/support/outbound-guard.js')}`,
      OUTBOUND_GUARD_LOG: log,
      OUTBOUND_GUARD_MODE: mode,
      OUTBOUND_GUARD_ALLOW: allow,
    });
    await suite.startApp('payments');
    await suite.startApp('webhooks', {
      env: {
        ...guard(webhooksLog, 'record'),
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_DISPATCH_POLL_MS: '100',
        NODE_EXTRA_CA_CERTS: caFile,
      },
    });
    gateway = await suite.startApp('gateway', { env: guard(gatewayLog, 'refuse') });
  });
  afterAll(async () => {
    await suite?.stop();
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = async (method: string, url: string, token: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const r = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: r.status, body: (await r.json()) as any };
  };
  const attempts = (log: string) =>
    readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));

  it('endpoint pings and a payment event reach the receiver; the gateway opened no connection beyond NATS and its database', async () => {
    const merchantCode = `egress${Date.now()}`;
    const admin = (path: string, body: unknown) =>
      call('POST', `${gateway.adminUrl}/v1/admin${path}`, ADMIN_TOKEN, body);
    expect((await admin('/merchants', { merchantCode, name: 'Egress' })).status).toBe(201);
    const { key } = (await admin('/keys', { merchantCodes: [merchantCode], type: 'private', environment: 'sandbox' }))
      .body;
    const ep = await call('POST', `${gateway.url}/v1/webhook-endpoint`, key, {
      url: receiver.url('/egress'),
      events: ['*'],
    });
    expect(ep.status).toBe(201);
    const ping = await call('POST', `${gateway.url}/v1/webhook-endpoint/${ep.body.id}/test`, key, {});
    expect(ping.status).toBe(202);
    const purchase = await call('POST', `${gateway.url}/v1/payment/purchase`, key, paymentBody(merchantCode));
    expect(purchase.status).toBe(200);
    await until(
      () => receiver.received.filter((r) => r.path === '/egress').map((r) => JSON.parse(r.body).type as string),
      (types) => types.includes('ping') && types.includes('payment.captured'),
      30_000,
    );

    // The guard ran in both processes; only the webhooks service connected to the receiver.
    expect(readFileSync(gatewayLog, 'utf8')).toMatch(/^# guard loaded in \d+/);
    expect(readFileSync(webhooksLog, 'utf8')).toMatch(/^# guard loaded in \d+/);
    expect(attempts(webhooksLog)).toContain(`127.0.0.1:${new URL(receiver.url('/')).port}`);
    expect(attempts(gatewayLog)).toEqual([]);
  });
});
