import { randomBytes } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, request as httpsRequest, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import type { Environment } from '@app/contracts';
import Stripe from 'stripe';
import type {
  ConnectorConnection,
  ProviderConnector,
  ProviderNotification,
} from '../../../../apps/payments/src/connector/provider-connector';
import { StripeConnector } from '../../../../apps/payments/src/connector/stripe/stripe.connector';
import type { ConnectorDouble } from '../connector-double';
import { selfSignedCert } from '../../self-signed-cert';
import { signedEvent } from './stripe-events';
import { StripeLedger, type Answer } from './stripe-ledger';
import {
  PAYMENT_INTENT_CANCEL,
  PAYMENT_INTENT_CAPTURE,
  PAYMENT_INTENT_CONFIRM,
  PAYMENT_INTENT_CREATE,
  PAYMENT_INTENT_LIST,
  PAYMENT_INTENT_RETRIEVE,
  PAYMENT_INTENT_SEARCH,
  PAYMENT_METHOD_CREATE,
  REFUND_CREATE,
  paramProblem,
  parseForm,
  type Form,
  type ParamSpec,
} from './stripe-params';
import { shapeViolations } from './stripe-shape';

const KEYS: Record<Environment, string> = {
  sandbox: 'sk_test_51DoubleSandboxKey0000000000',
  production: 'sk_live_51DoubleProductionKey000000000',
};
const WEBHOOK_SECRET = 'whsec_double0000000000000000000000';

interface Route {
  spec: ParamSpec;
  answer: (params: Form, livemode: boolean, id: string) => Answer;
}

/** One request the double took, card number and CVC masked. */
export interface TakenRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  params: Form;
}

/**
 * Stripe's API for the Stripe connector's tests: an HTTPS server (a self-signed certificate the connector is
 * told to trust) speaking Stripe's form-encoded v1 API for PaymentMethods, PaymentIntents (create, confirm,
 * capture, cancel, retrieve, list, search) and Refunds. It checks the secret key (401), the API version, every
 * parameter against the `stripe` package's types (400 `parameter_unknown`, stripe-params.ts), Idempotency-Key
 * as Stripe documents it (same key and parameters: the saved answer again, `Idempotent-Replayed: true`; other
 * parameters: 400 `idempotency_error`), and every object it answers with against fixtures3.json (stripe-shape.ts).
 * Whatever the document would reject is also recorded in `violations()`.
 */
export class StripeDouble implements ConnectorDouble {
  readonly acquirer = 'stripe';

  /** A Stripe capture is answered in its own call: there is no capture-failure event. */
  sends(kind: ProviderNotification['kind']): boolean {
    return kind !== 'capture_failed';
  }
  readonly ledger = new StripeLedger(() => this.origin());
  /** Every request taken, in order (for assertions on what the connector sent). */
  readonly requests: TakenRequest[] = [];
  private server: Server | undefined;
  private readonly tls = selfSignedCert();
  private readonly saved = new Map<string, { fingerprint: string; answer: Answer; drops: number }>();
  private readonly problems: string[] = [];
  private tamper: ((body: Record<string, unknown>) => void) | undefined;
  private readonly connectorInstance: StripeConnector;

  constructor(options: { timeoutMs?: number } = {}) {
    this.connectorInstance = new StripeConnector({ trustedCa: this.tls.cert, timeoutMs: options.timeoutMs ?? 5_000 });
  }

  async start(): Promise<void> {
    const server = createServer(this.tls, (req, res) => {
      this.handle(req, res).catch((error: Error) => {
        this.problems.push(`double failed: ${error.stack ?? error.message}`);
        res.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  origin(): string {
    return `https://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
  }

  connection(environment: Environment, connectionCode = `stripe-${environment}`): ConnectorConnection {
    return {
      connectionCode,
      merchantCode: 'merchant-double',
      environment,
      credentials: { apiKey: KEYS[environment], webhookSecret: WEBHOOK_SECRET },
      endpoint: this.origin(),
    };
  }

  connector(): ProviderConnector {
    return this.connectorInstance;
  }

  /** The CA the double's certificate is signed by (for a Stripe client of a test's own). */
  certificate(): string {
    return this.tls.cert;
  }

  async passChallenge(acquirerReference: string, authenticated: boolean): Promise<Record<string, string>> {
    const url = this.ledger.intent(acquirerReference)?.redirectUrl;
    if (!url) throw new Error(`PaymentIntent ${acquirerReference} waits for no 3DS`);
    const location = await new Promise<string>((resolve, reject) => {
      const req = httpsRequest(`${url}?authenticated=${authenticated}`, { ca: this.tls.cert }, (res) => {
        res.resume();
        resolve(String(res.headers.location ?? ''));
      });
      req.on('error', reject);
      req.end();
    });
    return Object.fromEntries(new URL(location).searchParams);
  }

  dropAnswerAfterNextCharge(): void {
    this.ledger.dropAfterNextCharge = true;
  }

  chargesFor(reference: string): number {
    return this.ledger.chargesFor(reference);
  }

  webhook(
    kind: ProviderNotification['kind'],
    acquirerReference: string,
    options: { success?: boolean; amountValue?: number; modificationReference?: string } = {},
  ): { rawBody: Buffer; headers: Record<string, string> } {
    const sources = this.ledger.eventSources(acquirerReference);
    const { rawBody, headers, violations } = signedEvent(kind, sources, WEBHOOK_SECRET, options);
    this.problems.push(...violations.map((v) => `webhook ${kind}: ${v}`));
    return { rawBody, headers };
  }

  violations(): string[] {
    return [...this.problems];
  }

  /** The violations so far, forgotten (for a test that provokes one on purpose). */
  takeViolations(): string[] {
    return this.problems.splice(0);
  }

  /** The next answer of a resource is altered by `change` before it is checked and sent. */
  tamperNextAnswer(change: (body: Record<string, unknown>) => void): void {
    this.tamper = change;
  }

  private routes(method: string, path: string): { route: Route; id: string } | undefined {
    const led = this.ledger;
    const at = (pattern: RegExp) => pattern.exec(path)?.[1] ?? '';
    const table: Array<[string, RegExp, Route]> = [
      ['POST', /^\/v1\/payment_methods$/, { spec: PAYMENT_METHOD_CREATE, answer: (p, l) => led.createMethod(p, l) }],
      ['POST', /^\/v1\/payment_intents$/, { spec: PAYMENT_INTENT_CREATE, answer: (p, l) => led.createIntent(p, l) }],
      ['GET', /^\/v1\/payment_intents$/, { spec: PAYMENT_INTENT_LIST, answer: (p, l) => led.list(p, l) }],
      ['GET', /^\/v1\/payment_intents\/search$/, { spec: PAYMENT_INTENT_SEARCH, answer: (p, l) => led.search(p, l) }],
      [
        'GET',
        /^\/v1\/payment_intents\/(pi_\w+)$/,
        { spec: PAYMENT_INTENT_RETRIEVE, answer: (p, l, i) => led.retrieve(i, p, l) },
      ],
      [
        'POST',
        /^\/v1\/payment_intents\/(pi_\w+)\/confirm$/,
        { spec: PAYMENT_INTENT_CONFIRM, answer: (p, l, i) => led.confirm(i, p, l) },
      ],
      [
        'POST',
        /^\/v1\/payment_intents\/(pi_\w+)\/capture$/,
        { spec: PAYMENT_INTENT_CAPTURE, answer: (p, l, i) => led.capture(i, p, l) },
      ],
      [
        'POST',
        /^\/v1\/payment_intents\/(pi_\w+)\/cancel$/,
        { spec: PAYMENT_INTENT_CANCEL, answer: (p, l, i) => led.cancel(i, p, l) },
      ],
      ['POST', /^\/v1\/refunds$/, { spec: REFUND_CREATE, answer: (p) => led.refund(p) }],
    ];
    const hit = table.find(([m, pattern]) => m === method && pattern.test(path));
    return hit ? { route: hit[2], id: at(hit[1]) } : undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'https://double');
    const method = req.method ?? 'GET';
    if (url.pathname.startsWith('/3ds/')) {
      const location = this.ledger.challenge(url.pathname.slice(5), url.searchParams.get('authenticated') === 'true');
      res.writeHead(location ? 302 : 404, location ? { location } : {}).end();
      return;
    }
    const auth = req.headers.authorization;
    const livemode = auth === `Bearer ${KEYS.production}`;
    if (!livemode && auth !== `Bearer ${KEYS.sandbox}`) {
      this.problems.push(`${method} ${url.pathname}: no valid API key`);
      return this.send(res, { status: 401, body: error('invalid_request_error', 'Invalid API Key provided') });
    }
    if (req.headers['stripe-version'] !== Stripe.API_VERSION) {
      this.problems.push(`${method} ${url.pathname}: Stripe-Version ${String(req.headers['stripe-version'])}`);
    }
    if (method === 'POST' && req.headers['content-type'] !== 'application/x-www-form-urlencoded') {
      this.problems.push(`${method} ${url.pathname}: Content-Type ${String(req.headers['content-type'])}`);
    }
    const params = parseForm(method === 'GET' ? url.search.slice(1) : Buffer.concat(chunks).toString('utf8'));
    const key = req.headers['idempotency-key'] as string | undefined;
    this.requests.push({ method, path: url.pathname, idempotencyKey: key, params: masked(params) });
    const found = this.routes(method, url.pathname);
    if (!found) {
      this.problems.push(`${method} ${url.pathname}: not an endpoint the double knows`);
      return this.send(res, { status: 404, body: error('invalid_request_error', `Unrecognized request URL`) });
    }
    const problem = paramProblem(params, found.route.spec);
    if (problem) {
      this.problems.push(`${method} ${url.pathname}: ${problem.message}`);
      return this.send(res, { status: 400, body: error('invalid_request_error', problem.message, problem) });
    }
    const scope = `${auth}\u0000${key}`;
    const fingerprint = `${method} ${url.pathname} ${JSON.stringify(params)}`;
    const saved = key && method === 'POST' ? this.saved.get(scope) : undefined;
    if (saved && saved.fingerprint !== fingerprint) {
      const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`;
      return this.send(res, { status: 400, body: error('idempotency_error', message) });
    }
    if (saved && saved.drops > 0) {
      saved.drops -= 1;
      res.socket?.destroy();
      return;
    }
    if (saved) return this.send(res, saved.answer, { 'idempotent-replayed': 'true' });
    const answer = found.route.answer(params, livemode, found.id);
    if (this.tamper && answer.status < 300) {
      this.tamper(answer.body);
      this.tamper = undefined;
    }
    this.problems.push(...answerViolations(answer).map((v) => `${method} ${url.pathname}: ${v}`));
    const { drop, ...kept } = answer;
    // A dropped answer: the package re-sends once on a closed connection (ECONNRESET, same Idempotency-Key),
    // and that replay's answer is lost too.
    if (key && method === 'POST') this.saved.set(scope, { fingerprint, answer: kept, drops: drop ? 1 : 0 });
    if (drop) {
      // The charge is taken and the answer saved; the connection dies before a byte of it is sent.
      res.socket?.destroy();
      return;
    }
    this.send(res, answer);
  }

  private send(res: ServerResponse, answer: Answer, headers: Record<string, string> = {}): void {
    const body = JSON.stringify(answer.body, null, 2);
    res.writeHead(answer.status, {
      'content-type': 'application/json',
      'request-id': `req_${randomBytes(7).toString('hex')}`,
      'stripe-version': Stripe.API_VERSION,
      ...headers,
    });
    res.end(body);
  }
}

function error(type: string, message: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { error: { type, message, ...extra } };
}

/** The resources of an answer that do not match fixtures3.json: the object, each of a list, an error's intent. */
function answerViolations(answer: Answer): string[] {
  const body = answer.body;
  if (answer.status >= 400) {
    const intent = (body.error as { payment_intent?: unknown } | undefined)?.payment_intent;
    return intent ? shapeViolations(intent, 'payment_intent') : [];
  }
  if (body.object === 'list' || body.object === 'search_result') {
    return (body.data as unknown[]).flatMap((item) => shapeViolations(item, (item as { object: string }).object));
  }
  return shapeViolations(body, String(body.object));
}

function masked(params: Form): Form {
  const card = params.card;
  if (!card || typeof card !== 'object' || Array.isArray(card)) return params;
  const number = typeof card.number === 'string' ? `${card.number.slice(0, 6)}…${card.number.slice(-4)}` : undefined;
  return { ...params, card: { ...card, ...(number ? { number } : {}), ...(card.cvc ? { cvc: '***' } : {}) } };
}
