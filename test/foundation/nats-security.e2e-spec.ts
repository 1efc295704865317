import { connect as connectTcp } from 'node:net';
import { connect, NatsConnection, NatsError, nkeyAuthenticator } from 'nats';
import { EventTypes, PaymentsSubjects } from '@app/contracts';
import { billingMerchant } from '../billing/billing-fixtures';
import { minute, TimeClient } from '../billing/renewal-fixtures';
import { linksMerchant, payWithCard } from '../payment-links/link-fixtures';
import { sandboxMerchant } from '../payments/payments-fixtures';
import { newNkey, SecureNats } from '../support/secure-nats';
import { TestStack } from '../support/stack';

jest.setTimeout(180_000);

/** The error a subscription gets, or 'none' when the server let it be for `ms`. */
function subscriptionError(nc: NatsConnection, subject: string, ms = 500): Promise<string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('none'), ms);
    nc.subscribe(subject, {
      callback: (err) => {
        clearTimeout(timer);
        resolve(err ? (err as NatsError).code : 'message');
      },
    });
  });
}

const codeOf = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'ok',
    (e: NatsError) => String(e.code ?? e.message),
  );

/**
 * NATS as k8s/ and docker-compose.yml run it: TLS, an nkey per app, and the permissions of the committed
 * k8s/nats/authorization.conf (generated from libs/contracts/src/subject-access.ts).
 */
describe('NATS with TLS, a credential per app and least privilege', () => {
  let nats: SecureNats;
  const open: NatsConnection[] = [];
  const as = async (app: Parameters<SecureNats['connectAs']>[0]) => {
    const nc = await nats.connectAs(app);
    open.push(nc);
    return nc;
  };

  beforeAll(async () => {
    nats = await SecureNats.start();
  });
  afterAll(async () => {
    for (const nc of open) await nc.close().catch(() => undefined);
    await nats?.stop();
  });

  it("refuses the gateway's credential reading payment commands or publishing an event", async () => {
    const gateway = await as('gateway');
    for (const subject of [PaymentsSubjects.purchase, 'cmd.payments.>', 'cmd.>', '>', '_INBOX.payments.>']) {
      expect([subject, await subscriptionError(gateway, subject)]).toEqual([subject, 'PERMISSIONS_VIOLATION']);
    }
    // What it may send, it still cannot read: a purchase sent by another gateway never reaches it.
    const reader = await as('gateway');
    const heard = subscriptionError(reader, PaymentsSubjects.purchase, 1000);
    (await as('gateway')).publish(PaymentsSubjects.purchase, '{}');
    expect(await heard).toBe('PERMISSIONS_VIOLATION');

    const js = gateway.jetstream();
    for (const type of [EventTypes.paymentCaptured, EventTypes.subscriptionRenewed, EventTypes.invoicePaid]) {
      expect(await codeOf(js.publish(type, Buffer.from('{}'), { timeout: 2000 }))).toBe('PERMISSIONS_VIOLATION');
    }
  });

  it('lets each service call only what it calls: billing cannot refund, payment-links cannot read billing', async () => {
    const billing = await as('billing');
    expect(await codeOf(billing.request(PaymentsSubjects.refund, '{}', { timeout: 2000 }))).toBe(
      'PERMISSIONS_VIOLATION',
    );
    expect(await codeOf(billing.request(PaymentsSubjects.capture, '{}', { timeout: 2000 }))).toBe(
      'PERMISSIONS_VIOLATION',
    );
    const links = await as('payment-links');
    expect(await subscriptionError(links, 'cmd.billing.subscription.create')).toBe('PERMISSIONS_VIOLATION');
    expect(
      await codeOf(links.jetstream().publish(EventTypes.paymentCaptured, Buffer.from('{}'), { timeout: 2000 })),
    ).toBe('PERMISSIONS_VIOLATION');
    // A service serves its own subjects.
    expect(await subscriptionError(await as('payments'), PaymentsSubjects.purchase)).toBe('none');
  });

  it('refuses a client without a credential, with a credential the server does not know, and without TLS', async () => {
    const base = { servers: nats.url, tls: { caFile: nats.caFile }, reconnect: false, timeout: 3000 };
    expect(await codeOf(connect(base))).toBe('AUTHORIZATION_VIOLATION');
    const stranger = newNkey();
    expect(
      await codeOf(
        connect({
          ...base,
          authenticator: nkeyAuthenticator(new TextEncoder().encode(stranger.seed)),
        }),
      ),
    ).toBe('AUTHORIZATION_VIOLATION');

    // Plain text: the server announces that TLS is required and hangs up on a CONNECT in the clear.
    const transcript = await new Promise<string>((resolve) => {
      let text = '';
      const socket = connectTcp(nats.port, '127.0.0.1');
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        if (!text) socket.write('CONNECT {"verbose":false,"pedantic":false}\r\nPING\r\n');
        text += chunk;
      });
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(text));
      setTimeout(() => socket.destroy(), 5000);
    });
    expect(transcript).toMatch(/^INFO .*"tls_required":true/);
    expect(transcript).not.toContain('PONG');
  });

  it("the client verifies the server: without the test CA the server's certificate is refused", async () => {
    const code = await codeOf(
      connect({
        servers: nats.url,
        tls: {},
        authenticator: nkeyAuthenticator(new TextEncoder().encode(nats.keys.gateway.seed)),
        reconnect: false,
        timeout: 3000,
      }),
    );
    expect(code).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY|certificate/i);
  });

  describe('the whole suite over it', () => {
    let stack: TestStack;

    beforeAll(async () => {
      stack = await TestStack.start({
        services: [],
        gateway: false,
        env: { NATS_URL: nats.url, NATS_CA_FILE: nats.caFile, LINK_EXPIRY_SWEEP_MS: '0' },
      });
      for (const service of ['payments', 'payment-links', 'billing', 'webhooks'] as const) {
        await stack.startService(service, nats.envOf(service));
      }
      await stack.startGateway(nats.envOf('gateway'));
    });
    afterAll(() => stack?.stop());

    it('takes a purchase, and its event reaches the gateway through JetStream', async () => {
      const m = await sandboxMerchant(stack);
      const r = await m.purchase();
      expect(r.status).toBe(200);
      expect(r.body.status).toBe('captured');
      const deadline = Date.now() + 15_000;
      let types: string[] = [];
      while (Date.now() < deadline && !types.includes('payment.captured')) {
        types = (await stack.http('GET', '/v1/events?limit=10', { key: m.key })).body.map((e: any) => e.type);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(types).toContain('payment.captured');
    });

    it('renews a subscription when the sandbox clock advances (billing charges through payments)', async () => {
      const c = new TimeClient(await billingMerchant(stack));
      await c.advance({ to: '2028-01-10T10:00:00Z' });
      const plan = await c.m.plan({ amount: 1000 });
      const s = await c.m.subscription({ planId: plan.id });
      await c.advance({ to: '2028-03-11T12:00:00Z' });
      const invoices = await c.invoices(s.id);
      expect(invoices.map((i) => [i.status, minute(i.periodStart)])).toEqual([
        ['paid', '2028-01-10T10:00'],
        ['paid', '2028-02-10T10:00'],
        ['paid', '2028-03-10T10:00'],
      ]);
      expect((await c.renewalPayments(s.id)).map((p) => p.status)).toEqual(['captured', 'captured']);
    });

    it('takes a payment-link payment (the hosted checkout, a nonce, payment-links charging through payments)', async () => {
      const m = await linksMerchant(stack);
      const link = await m.link();
      const r = await payWithCard(stack, link.id);
      expect(r.status).toBe(200);
      expect(r.body.payment.status).toBe('captured');
      expect((await m.get(link.id)).body.status).toBe('used');
    });

    it('does not start an app whose credential the server does not know, and says why', async () => {
      const stranger = { ...nats.envOf('billing'), NATS_NKEY_SEED: newNkey().seed };
      await expect(stack.startService('billing', stranger)).rejects.toThrow(/Authorization Violation/);
    });

    it('logs no plain-NATS warning: every app connected with TLS and its credential', () => {
      for (const app of ['gateway', 'payments', 'payment-links', 'billing', 'webhooks']) {
        expect(stack.log(app).text()).not.toContain('unauthenticated');
        expect(stack.log(app).text()).not.toMatch(/PERMISSIONS_VIOLATION|Permissions Violation/);
      }
    });
  });

  it('in development, an app on a plain server without credentials says so in one log line', async () => {
    const plain = await TestStack.start({ services: ['payments'], gateway: false, env: { NODE_ENV: 'development' } });
    try {
      const warnings = plain
        .log('payments')
        .json()
        .filter((l) => /unauthenticated/.test(String(l.msg)));
      expect(warnings).toEqual([
        expect.objectContaining({
          msg: expect.stringMatching(/NATS connection is unauthenticated and unencrypted: development only/),
        }),
      ]);
    } finally {
      await plain.stop();
    }
  });
});
