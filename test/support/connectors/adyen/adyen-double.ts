import { randomBytes } from 'node:crypto';
import { createServer, request as httpsRequest, Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Environment } from '@app/contracts';
import { AdyenConnector } from '../../../../apps/payments/src/connector/adyen/adyen.connector';
import type {
  ConnectorConnection,
  ProviderConnector,
  ProviderNotification,
} from '../../../../apps/payments/src/connector/provider-connector';
import { selfSignedCert } from '../../self-signed-cert';
import type { ConnectorDouble } from '../connector-double';
import { checkoutRequestProblems, checkoutResponseProblems, webhookProblems } from './adyen-document';
import { AdyenOperations } from './adyen-operations';
import { newHmacKey, serviceError, sign, type Answer, type NotificationItem } from './adyen-ledger';

const EVENT_CODES: Readonly<Record<ProviderNotification['kind'], string>> = {
  authorisation: 'AUTHORISATION',
  capture: 'CAPTURE',
  capture_failed: 'CAPTURE_FAILED',
  refund: 'REFUND',
  refund_failed: 'REFUND_FAILED',
  cancellation: 'CANCELLATION',
  chargeback: 'CHARGEBACK',
  chargeback_reversed: 'CHARGEBACK_REVERSED',
  other: 'REQUEST_FOR_INFORMATION',
};

/** The document's path template of a request path under /v71, or undefined. */
function operationPath(path: string): string | undefined {
  if (path === '/v71/payments' || path === '/v71/payments/details') return path.slice(4);
  const modification = path.match(/^\/v71\/payments\/[^/]+\/(captures|refunds|cancels|reversals)$/);
  return modification ? `/payments/{paymentPspReference}/${modification[1]}` : undefined;
}

export interface AdyenDoubleOptions {
  /** Added before every answer, as Adyen's network and processing would. */
  latencyMs?: number;
  /** The connector's wait for an answer (ms). */
  connectorTimeoutMs?: number;
}

/**
 * Adyen's Checkout API v71 and its standard webhooks on a local HTTPS server, bound to Adyen's published
 * documents: every request body is validated against its operation's requestBody schema (a mismatch is a
 * violation and answered 422, as Adyen would), every answer and webhook against its schema before it is sent.
 * The X-API-Key is checked; an Idempotency-Key seen before with the same body replays the first answer without
 * acting again. Test cards as in ConnectorDouble; the holder name `REFUSE <code>` is refused with that Adyen
 * refusalReasonCode.
 */
export class AdyenDouble implements ConnectorDouble {
  readonly acquirer = 'adyen';

  /** Adyen's standard notifications cover every kind (CAPTURE_FAILED included). */
  sends(): boolean {
    return true;
  }
  readonly merchantAccount = 'PlatformTestECOM';
  readonly hmacKey = newHmacKey();
  private readonly apiKeys: Record<Environment, string> = {
    sandbox: `AQE_test_${randomBytes(12).toString('hex')}`,
    production: `AQE_live_${randomBytes(12).toString('hex')}`,
  };
  private server?: Server;
  private origin = '';
  private readonly problems: string[] = [];
  private readonly idempotent = new Map<string, { request: string; answer: Answer }>();
  private dropNext = false;
  private serverErrorNext = false;
  /** Every request the double received: path, headers and body, for tests to inspect. */
  readonly received: { path: string; idempotencyKey?: string; body: Record<string, unknown> }[] = [];
  readonly operations = new AdyenOperations(() => this.origin);

  constructor(private readonly options: AdyenDoubleOptions = {}) {}

  async start(): Promise<void> {
    const server = createServer(selfSignedCert(), (req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  connection(environment: Environment, connectionCode = `adyen-${environment}`): ConnectorConnection {
    return {
      connectionCode,
      merchantCode: 'merchant-adyen',
      environment,
      credentials: { apiKey: this.apiKeys[environment], merchantAccount: this.merchantAccount, hmacKey: this.hmacKey },
      endpoint: this.origin,
    };
  }

  connector(): ProviderConnector {
    return new AdyenConnector({
      trustedCa: selfSignedCert().cert,
      timeoutMs: this.options.connectorTimeoutMs ?? 10_000,
      defaultReturnUrl: 'https://gateway.test/3ds/return',
    });
  }

  async passChallenge(acquirerReference: string, authenticated: boolean): Promise<Record<string, string>> {
    const url = this.operations.challengeUrl(acquirerReference);
    if (!url) throw new Error(`No 3DS challenge open for ${acquirerReference}`);
    const location = await new Promise<string>((resolve, reject) => {
      const req = httpsRequest(
        `${url}?authenticated=${String(authenticated)}`,
        { ca: selfSignedCert().cert },
        (res) => {
          res.resume();
          resolve(String(res.headers.location ?? ''));
        },
      );
      req.on('error', reject);
      req.end();
    });
    const redirectResult = new URL(location).searchParams.get('redirectResult');
    if (!redirectResult) throw new Error(`The 3DS page sent the shopper to ${location}`);
    return { redirectResult };
  }

  dropAnswerAfterNextCharge(): void {
    this.dropNext = true;
  }

  /** The next authorization is taken, then answered 500 (Adyen's internal error after acting). */
  serverErrorAfterNextCharge(): void {
    this.serverErrorNext = true;
  }

  chargesFor(reference: string): number {
    return this.operations.chargesFor(reference);
  }

  webhook(
    kind: ProviderNotification['kind'],
    acquirerReference: string,
    options: { success?: boolean; amountValue?: number; modificationReference?: string } = {},
  ): { rawBody: Buffer; headers: Record<string, string> } {
    const eventCode = EVENT_CODES[kind];
    const item: NotificationItem = this.operations.notificationItem(eventCode, acquirerReference, options);
    item.additionalData = { ...item.additionalData, hmacSignature: sign(item, this.hmacKey) };
    const payment = this.operations.payment(acquirerReference);
    const body = { live: payment?.live ? 'true' : 'false', notificationItems: [{ NotificationRequestItem: item }] };
    for (const problem of webhookProblems(eventCode, body)) this.problems.push(`webhook ${eventCode}: ${problem}`);
    return { rawBody: Buffer.from(JSON.stringify(body)), headers: { 'content-type': 'application/json' } };
  }

  violations(): string[] {
    return [...this.problems];
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', this.origin);
      if (req.method === 'GET' && url.pathname.startsWith('/3ds/')) {
        const location = this.operations.shopperAtChallenge(
          url.pathname.slice(5),
          url.searchParams.get('authenticated') === 'true',
        );
        res.writeHead(location ? 302 : 404, location ? { location } : {}).end();
        return;
      }
      const path = operationPath(url.pathname);
      const result = this.answer(req, path, url.pathname, text);
      if (result.drop) {
        req.socket.destroy();
        return;
      }
      const send = (): void => {
        res.writeHead(result.answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(result.answer.body));
      };
      if (this.options.latencyMs) setTimeout(send, this.options.latencyMs);
      else send();
    });
  }

  private answer(
    req: IncomingMessage,
    path: string | undefined,
    requestPath: string,
    text: string,
  ): { answer: Answer; drop?: boolean } {
    if (req.method !== 'POST' || !path) {
      this.problems.push(`${req.method} ${requestPath} is not an operation of the Checkout API v71`);
      return { answer: serviceError(404, '000', 'Not found', 'validation') };
    }
    const environment = (Object.keys(this.apiKeys) as Environment[]).find(
      (e) => this.apiKeys[e] === req.headers['x-api-key'],
    );
    if (!environment) return { answer: serviceError(401, '000', 'HTTP Status Response - Unauthorized', 'security') };
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      this.problems.push(`POST ${path}: the body is not JSON`);
      return { answer: serviceError(400, '702', 'Structure of the request is invalid', 'validation') };
    }
    const key = req.headers['idempotency-key'] as string | undefined;
    this.received.push({ path: requestPath, idempotencyKey: key, body });
    const problems = checkoutRequestProblems(path, body);
    if (problems.length > 0) {
      this.problems.push(`POST ${path}: ${problems.join('; ')}`);
      return { answer: serviceError(422, '14_030', `Invalid request: ${problems.join('; ')}`, 'validation') };
    }
    if (!key) this.problems.push(`POST ${path} without an Idempotency-Key`);
    if (key && key.length > 64) {
      // The document's Idempotency-Key parameter: "a maximum of 64 characters".
      this.problems.push(`POST ${path}: Idempotency-Key longer than 64 characters`);
      return { answer: serviceError(422, '14_030', 'Idempotency-Key longer than 64 characters', 'validation') };
    }
    const fingerprint = `${requestPath} ${text}`;
    const seen = key ? this.idempotent.get(key) : undefined;
    if (seen) {
      if (seen.request === fingerprint) return { answer: seen.answer };
      return { answer: serviceError(422, '704', 'request already processed or in progress', 'validation') };
    }
    if (body.merchantAccount !== undefined && body.merchantAccount !== this.merchantAccount) {
      return { answer: serviceError(403, '901', 'Invalid Merchant Account', 'security') };
    }
    const answer = this.operations.act(requestPath, path, body, environment === 'production');
    for (const problem of checkoutResponseProblems(path, answer.status, answer.body)) {
      this.problems.push(`answer ${answer.status} to POST ${path}: ${problem}`);
    }
    if (key) this.idempotent.set(key, { request: fingerprint, answer });
    const charged = path === '/payments' && answer.status === 200;
    const drop = this.dropNext && charged;
    if (drop) this.dropNext = false;
    if (this.serverErrorNext && charged) {
      this.serverErrorNext = false;
      return { answer: serviceError(500, '000', 'Internal error', 'internal') };
    }
    return { answer, drop };
  }
}
