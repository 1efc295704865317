import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { INestApplication } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Clock } from '@app/clock';
import { ServiceName } from '@app/contracts';
import { startBilling } from '../../apps/billing/src/main';
import { gatewayAdminUrl, startGateway } from '../../apps/gateway/src/main';
import { startPaymentLinks } from '../../apps/payment-links/src/main';
import { ProviderConnector } from '../../apps/payments/src/connector/provider-connector';
import { startPayments } from '../../apps/payments/src/main';
import { startWebhooks } from '../../apps/webhooks/src/main';
import { faultOverrides, Faults } from './fault-injection';
import { LogCapture } from './log-capture';
import { ADMIN_TOKEN, runState } from './run-state';
import { createFromTemplate } from './templates';

export { ADMIN_TOKEN };

const STARTERS: Record<ServiceName, typeof startPayments> = {
  payments: startPayments,
  'payment-links': startPaymentLinks,
  billing: startBilling,
  webhooks: startWebhooks,
};

/** One request over node:http bound to `localAddress`, answered like fetch's Response (status, headers, text). */
function requestFrom(
  localAddress: string,
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; headers: Headers; text(): Promise<string> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const h = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) h.append(name, v);
        }
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: h, text: async () => text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface StackOptions {
  /** The services to start (payments when unset); a webhooks replica starts with the first gateway unless listed or `webhooks: false`. */
  services?: ServiceName[];
  /** false: no webhooks service beside the gateway (a test of the others alone). */
  webhooks?: boolean;
  env?: Record<string, string>;
  gateway?: boolean;
  webhookCa?: string;
  clock?: Clock;
  connectors?: readonly ProviderConnector[];
  /** Faults injected into the services this start starts (not into replicas started later). */
  faults?: Partial<Record<ServiceName, Faults>>;
}

/**
 * The real suite in this process: gateway and services on fresh databases of their own (dropped after the
 * run), talking over the run's real NATS server. Every app's log lines are captured for assertions.
 */
export class TestStack {
  readonly logs = new Map<string, LogCapture>();
  readonly services = new Map<ServiceName, INestApplication[]>();
  gateway?: INestApplication;
  /** Every running gateway replica (startGateway adds one; `gateway` is the latest). */
  readonly gateways: INestApplication[] = [];
  /** Whether a gateway start brings up a webhooks replica when none was started (StackOptions.webhooks). */
  withWebhooks = true;
  /** Extra CA (PEM) the webhooks service trusts for webhook targets (a test's self-signed receiver). */
  webhookCa?: string;
  /** Clock the services start with (a ManualClock in tests of time-driven rules); real time when unset. */
  clock?: Clock;
  /** Acquirer adapters the payments replicas start with; one named `sandbox` stands in for the built-in one. */
  connectors?: readonly ProviderConnector[];
  url = '';
  /** The latest gateway's internal port: admin API, /metrics, the full API description. */
  adminUrl = '';

  private constructor(
    readonly env: Record<string, string>,
    readonly dbPrefix: string,
  ) {}

  static async start(o: StackOptions = {}): Promise<TestStack> {
    const state = runState();
    // Random, not a counter: Jest gives every test file a fresh module registry, so a module-level counter
    // would hand the same databases to the first stack of every file.
    const prefix = `t_${state.runId}_${randomBytes(5).toString('hex')}`;
    const env: Record<string, string> = {
      NODE_ENV: 'test',
      // Tests speak plain http:// to the gateway: the dashboard cookie without Secure (docs/configuration.md).
      DASHBOARD_INSECURE_COOKIE: 'true',
      NATS_URL: state.natsUrl,
      LOG_LEVEL: 'debug',
      ADMIN_TOKEN,
      PORT: '0',
      ADMIN_PORT: '0',
      PAYMENTS_HTTP_PORT: '0',
      PAYMENT_LINKS_HTTP_PORT: '0',
      BILLING_HTTP_PORT: '0',
      WEBHOOKS_HTTP_PORT: '0',
      GATEWAY_DATABASE_URL: `${state.pgBase}/${prefix}_gateway`,
      PAYMENTS_DATABASE_URL: `${state.pgBase}/${prefix}_payments`,
      PAYMENT_LINKS_DATABASE_URL: `${state.pgBase}/${prefix}_payment_links`,
      BILLING_DATABASE_URL: `${state.pgBase}/${prefix}_billing`,
      WEBHOOKS_DATABASE_URL: `${state.pgBase}/${prefix}_webhooks`,
      DEMO_MERCHANT: 'false',
      OUTBOX_POLL_MS: '50',
      RATE_LIMIT_PER_SECOND: '0',
      // Every test client is 127.0.0.1: the per-address abuse limits are off unless a test turns them on.
      AUTH_FAILURES_PER_MINUTE: '0',
      CHECKOUT_DECLINES_PER_ADDRESS: '0',
      CHECKOUT_DECLINES_PER_LINK: '0',
      // Billing renews on a clock advance; a test that wants the real-time loop sets it (a test-held clock
      // moved by hand would otherwise renew subscriptions under another test's feet).
      RENEWAL_POLL_MS: '0',
      // Tests move sandbox clocks to fixed dates (2028, 2029) from whatever day they run on, in one call.
      SANDBOX_MAX_ADVANCE: 'P10Y',
      // Its own durable EVENTS consumer: stacks share the NATS server but not the webhooks database.
      WEBHOOK_CONSUMER_NAME: `${prefix}_webhooks`,
      // The gateway's card-update emails read EVENTS with their own consumer too.
      CARD_UPDATE_CONSUMER_NAME: `${prefix}_card_update`,
      ...o.env,
    };
    const stack = new TestStack(env, prefix);
    stack.webhookCa = o.webhookCa;
    stack.clock = o.clock;
    stack.connectors = o.connectors;
    stack.withWebhooks = o.webhooks !== false;
    for (const s of o.services ?? ['payments']) await stack.startService(s, {}, o.faults?.[s]);
    if (o.gateway !== false) await stack.startGateway();
    return stack;
  }

  /** A started stack and what `client` makes on it (a merchant's client); the stack stops if that fails. */
  static async startWith<C>(client: (stack: TestStack) => Promise<C>, o?: StackOptions): Promise<[TestStack, C]> {
    const stack = await TestStack.start(o);
    try {
      return [stack, await client(stack)];
    } catch (e) {
      await stack.stop();
      throw e;
    }
  }

  /** The first webhooks service replica: its database holds the endpoints, the delivery log and the events. */
  get webhooks(): INestApplication {
    const app = this.services.get('webhooks')?.[0];
    if (!app) throw new Error('the webhooks service is not running in this stack');
    return app;
  }

  log(app: string): LogCapture {
    let capture = this.logs.get(app);
    if (!capture) this.logs.set(app, (capture = new LogCapture()));
    return capture;
  }

  /** `clock`: the gateway's own clock (client token expiry); real time unless a test passes one. */
  async startGateway(extraEnv: Record<string, string> = {}, clock?: Clock): Promise<INestApplication> {
    // The gateway names every merchant it creates to the webhooks service: one runs beside it unless the test
    // started its own or said `webhooks: false`.
    if (this.withWebhooks && !this.services.has('webhooks')) await this.startService('webhooks');
    const env = { ...this.env, ...extraEnv };
    await createFromTemplate('gateway', env);
    const app = await startGateway({
      env,
      clock,
      logDestination: this.log('gateway'),
      print: () => undefined,
    });
    this.gateway = app;
    this.gateways.push(app);
    this.url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    this.adminUrl = gatewayAdminUrl(app as NestFastifyApplication);
    return app;
  }

  /** Starts one more replica of a service (they share the service's queue group and database). */
  async startService(
    name: ServiceName,
    extraEnv: Record<string, string> = {},
    faults?: Faults,
  ): Promise<INestApplication> {
    const env = { ...this.env, ...extraEnv };
    await createFromTemplate(name, env);
    const app = await STARTERS[name]({
      env,
      overrides: faultOverrides(name, faults),
      logDestination: this.log(name),
      clock: this.clock,
      ...(name === 'payments' ? { connectors: this.connectors } : {}),
      ...(name === 'webhooks' ? { webhookCa: this.webhookCa } : {}),
    });
    this.services.set(name, [...(this.services.get(name) ?? []), app]);
    return app;
  }

  async stopService(name: ServiceName): Promise<void> {
    for (const app of this.services.get(name) ?? []) await app.close();
    this.services.set(name, []);
  }

  /** Stops one replica of a service (the others go on). */
  async stopReplica(name: ServiceName, app: INestApplication): Promise<void> {
    this.services.set(
      name,
      (this.services.get(name) ?? []).filter((a) => a !== app),
    );
    await app.close();
  }

  /** Stops one gateway replica (the latest by default), as a deploy or a crash-free restart would. */
  async stopGateway(app = this.gateway): Promise<void> {
    if (!app) return;
    this.gateways.splice(this.gateways.indexOf(app), 1);
    await app.close();
    if (this.gateway !== app) return;
    this.gateway = this.gateways[this.gateways.length - 1];
    if (!this.gateway) return;
    this.url = (await this.gateway.getUrl()).replace('[::1]', '127.0.0.1');
    this.adminUrl = gatewayAdminUrl(this.gateway as NestFastifyApplication);
  }

  async stop(): Promise<void> {
    for (const app of [...this.gateways]) await this.stopGateway(app);
    for (const name of this.services.keys()) await this.stopService(name);
  }

  async http<T = any>(
    method: string,
    path: string,
    o: {
      key?: string;
      body?: unknown;
      rawBody?: string;
      headers?: Record<string, string>;
      /** Which gateway server: the public one unless a test says internal (admin API, /metrics, full docs). */
      port?: 'public' | 'internal';
      /** The local address the request leaves from (127.0.0.2, …): another client address for the gateway. */
      from?: string;
    } = {},
  ): Promise<HttpResult<T>> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.key) headers.authorization = `Bearer ${o.key}`;
    let body: string | undefined = o.rawBody;
    if (o.body !== undefined) body = JSON.stringify(o.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const url = `${o.port === 'internal' ? this.adminUrl : this.url}${path}`;
    const res = o.from
      ? await requestFrom(o.from, method, url, headers, body)
      : await fetch(url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  admin<T = any>(method: string, path: string, body?: unknown): Promise<HttpResult<T>> {
    return this.http<T>(method, `/v1/admin${path}`, { key: ADMIN_TOKEN, body, port: 'internal' });
  }

  async merchant(code = `m${Math.random().toString(36).slice(2, 10)}`): Promise<string> {
    const r = await this.admin('POST', '/merchants', { merchantCode: code, name: `Merchant ${code}` });
    if (r.status !== 201) throw new Error(`merchant: ${r.status} ${JSON.stringify(r.body)}`);
    return code;
  }

  /**
   * Lets `merchantCode` take production payments in a test: production has no connection of its own
   * (docs/connectors.md), so this adds one to the simulator through the admin API, with the explicit
   * `allowSimulator` a NODE_ENV=production deployment refuses. Every currency and method, priority 1000 (last,
   * like the sandbox default). Replaces it when called again.
   */
  async productionSimulator(
    merchantCode: string,
    o: { connectionCode?: string; priority?: number } = {},
  ): Promise<void> {
    const r = await this.admin('POST', `/merchants/${merchantCode}/connections`, {
      connectionCode: o.connectionCode ?? 'simulator',
      connectionName: 'Simulator (tests)',
      acquirer: 'sandbox',
      environment: 'production',
      currencies: [],
      methods: [],
      priority: o.priority ?? 1000,
      allowSimulator: true,
    });
    if (r.status !== 201 && r.status !== 200)
      throw new Error(`productionSimulator: ${r.status} ${JSON.stringify(r.body)}`);
  }

  async key(
    merchantCodes: string[],
    type: 'private' | 'public' = 'private',
    environment: 'sandbox' | 'production' = 'sandbox',
  ): Promise<{ id: string; key: string }> {
    const r = await this.admin('POST', '/keys', { merchantCodes, type, environment });
    if (r.status !== 201) throw new Error(`key: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }
}
