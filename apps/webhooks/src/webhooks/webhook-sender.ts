import { Inject, Injectable } from '@nestjs/common';
import { request } from 'node:https';
import { rootCertificates } from 'node:tls';
import { WebhookHeaders } from '@app/contracts';
import { SendOutcome } from './delivery-policy';
import { providerSignatureHeader, signatureHeader } from './signature';
import { pinnedLookup, resolveTarget, TargetRefused } from './target-guard';
import { WEBHOOK_OPTIONS, WebhookOptions } from './webhooks.options';

export interface WebhookRequest {
  url: string;
  eventId: string;
  body: string;
  /** Live signing secrets, the current one first: each header carries a signature per secret. */
  secrets: readonly string[];
}

export const WEBHOOK_USER_AGENT = 'PaymentsPlatform-Webhooks/1.0 (+https://pay.example.com/docs/webhooks)';

/** Reads at most this much of a receiver's answer; only the status matters. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * One HTTPS POST of a signed envelope. The target is resolved and checked (SSRF) right before the request and
 * the socket is pinned to the checked addresses. Redirects are not followed: a 3xx is a failed attempt.
 * Webhook timing is real time in both environments (docs/webhooks.md), so this reads the system clock on purpose.
 */
@Injectable()
export class WebhookSender {
  private readonly ca?: string[];

  constructor(@Inject(WEBHOOK_OPTIONS) private readonly options: WebhookOptions) {
    if (options.extraCa) this.ca = [...rootCertificates, options.extraCa];
  }

  async send(req: WebhookRequest): Promise<SendOutcome> {
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    let target;
    try {
      target = await resolveTarget(req.url, {
        allowPrivate: this.options.allowPrivateTargets,
        requireResolution: true,
      });
    } catch (e) {
      if (!(e instanceof TargetRefused)) throw e;
      return { ok: false, responseStatus: null, durationMs: elapsed(), error: e.message, permanent: e.permanent };
    }
    const t = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(req.body)),
      'user-agent': WEBHOOK_USER_AGENT,
      [WebhookHeaders.id]: req.eventId,
      [WebhookHeaders.signature]: signatureHeader(req.secrets, req.body, t),
      [WebhookHeaders.providerSignature]: providerSignatureHeader(req.secrets, req.body),
    };
    try {
      const status = await this.post(target.url, target.host, target.addresses, headers, req.body);
      const ok = status >= 200 && status < 300;
      return {
        ok,
        responseStatus: status,
        durationMs: elapsed(),
        error: ok ? null : `HTTP ${status}`,
        permanent: false,
      };
    } catch (e) {
      return { ok: false, responseStatus: null, durationMs: elapsed(), error: (e as Error).message, permanent: false };
    }
  }

  private post(
    url: URL,
    host: string,
    addresses: Parameters<typeof pinnedLookup>[0],
    headers: Record<string, string>,
    body: string,
  ): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = request({
        host,
        port: url.port || 443,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers,
        lookup: pinnedLookup(addresses) as never,
        ca: this.ca,
        agent: false,
      });
      const timer = setTimeout(
        () => req.destroy(new Error(`no answer within ${this.options.timeoutMs} ms`)),
        this.options.timeoutMs,
      );
      req.on('response', (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) res.destroy();
        });
        const done = (): void => {
          clearTimeout(timer);
          resolve(res.statusCode ?? 0);
        };
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      });
      req.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      req.end(body);
    });
  }
}
