import { request as httpsRequest, type Agent } from 'node:https';
import type { Socket } from 'node:net';
import type { Config } from '@adyen/api-library';
import type ClientInterface from '@adyen/api-library/lib/src/httpClient/clientInterface';
import type { IRequest } from '@adyen/api-library/lib/src/typings/requestOptions';
import { ConnectorNotSent, ConnectorOutcomeUnknown } from '../provider-connector';

/** Adyen answered 4xx: the request was refused as it stands and had no effect. */
export class AdyenRequestRejected extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'AdyenRequestRejected';
  }
}

export interface AdyenHttpOptions {
  /** An origin (and path prefix) that replaces the library's: a local double, or a non-standard live URL. */
  origin?: string;
  /** PEM of a certificate authority to trust besides the system's (a test double's self-signed certificate). */
  trustedCa?: string;
  /** How long to wait for an answer once the request is sent; after that the outcome is unknown. */
  timeoutMs: number;
  /** The HTTPS agent a call to `url` connects through (the egress proxy's when it applies); node's global when absent. */
  agentFor?: (url: URL) => Agent;
}

/**
 * The `@adyen/api-library` client's transport: the library builds the URL, headers and JSON; this sends them to
 * `origin` when one is set, and tells apart a request that never left (ConnectorNotSent: no TLS session was
 * established, so Adyen cannot have read it) from one whose outcome is unknown (ConnectorOutcomeUnknown: a
 * timeout, a dropped connection or a 5xx after the request was sent). A 4xx is AdyenRequestRejected.
 */
export class AdyenHttpClient implements ClientInterface {
  constructor(private readonly options: AdyenHttpOptions) {}

  request(
    endpoint: string,
    json: string,
    config: Config,
    _isApiKeyRequired: boolean,
    requestOptions?: IRequest.Options,
  ): Promise<string> {
    const url = this.urlFor(endpoint);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
      'x-api-key': config.apiKey ?? '',
      'user-agent': 'payments-platform adyen-connector',
    };
    if (requestOptions?.idempotencyKey) headers['idempotency-key'] = requestOptions.idempotencyKey;
    const body = Buffer.from(json, 'utf8');
    headers['content-length'] = String(body.length);
    return new Promise<string>((resolve, reject) => {
      let connected = false;
      const req = httpsRequest(url, {
        method: requestOptions?.method ?? 'POST',
        headers,
        ...(this.options.trustedCa ? { ca: this.options.trustedCa } : {}),
        ...(this.options.agentFor ? { agent: this.options.agentFor(url) } : {}),
      });
      req.on('socket', (socket: Socket) => {
        if (!socket.connecting) connected = true;
        else socket.once('secureConnect', () => (connected = true));
      });
      req.setTimeout(this.options.timeoutMs, () =>
        req.destroy(new Error(`no answer within ${this.options.timeoutMs} ms`)),
      );
      req.on('error', (error: Error) => {
        const what = `Adyen ${url.pathname}: ${error.message}`;
        reject(connected ? new ConnectorOutcomeUnknown(what, error) : new ConnectorNotSent(what, error));
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (error) => reject(new ConnectorOutcomeUnknown(`Adyen ${url.pathname}: ${error.message}`)));
        res.on('end', () => {
          if (!res.complete) {
            return reject(new ConnectorOutcomeUnknown(`Adyen ${url.pathname}: the answer was cut off`));
          }
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) return resolve(text);
          if (status >= 500 || status < 400) {
            return reject(new ConnectorOutcomeUnknown(`Adyen ${url.pathname} answered ${status}`));
          }
          const error = parseServiceError(text);
          reject(
            new AdyenRequestRejected(
              status,
              error.errorCode,
              `Adyen ${status} ${error.errorCode ?? ''}: ${error.message}`,
            ),
          );
        });
      });
      req.end(body);
    });
  }

  /** The URL a call to the library's `endpoint` goes to. */
  urlFor(endpoint: string): URL {
    const built = new URL(endpoint);
    if (!this.options.origin) return built;
    const origin = new URL(this.options.origin);
    const prefix = origin.pathname.replace(/\/$/, '');
    return new URL(`${origin.origin}${prefix}${built.pathname}${built.search}`);
  }
}

function parseServiceError(text: string): { errorCode?: string; message: string } {
  try {
    const parsed = JSON.parse(text) as { errorCode?: unknown; message?: unknown };
    return {
      errorCode: typeof parsed.errorCode === 'string' ? parsed.errorCode : undefined,
      message: typeof parsed.message === 'string' ? parsed.message : 'request rejected',
    };
  } catch {
    return { message: 'request rejected' };
  }
}
