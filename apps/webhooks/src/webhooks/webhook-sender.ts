import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Agent, request } from 'node:https';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import { WebhookHeaders } from '@app/contracts';
import { deliveryErrorOf, errorCodeOf } from './delivery-error';
import { SendOutcome, unanswered } from './delivery-policy';
import { providerSignatureHeader, signatureHeader } from '@app/webhook-signature';
import { TargetAgents } from './target-agents';
import { resolveTarget, TargetRefused } from './target-guard';
import { WEBHOOK_OPTIONS, WebhookOptions } from './webhooks.options';

export interface WebhookRequest {
  url: string;
  eventId: string;
  body: string;
  /** Live signing secrets, the current one first: each header carries a signature per secret. */
  secrets: readonly string[];
}

export const WEBHOOK_USER_AGENT = 'PaymentsPlatform-Webhooks/1.0 (+https://pay.example.com/docs/webhooks)';

/** Reads at most this much of a receiver's answer: the status decides, the start is kept for the log. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** How much of the answer the delivery log keeps. */
export const RESPONSE_EXCERPT_BYTES = 1024;

interface Answer {
  status: number;
  excerpt: string | null;
}

/** The kept start of an answer as text: invalid or cut UTF-8 reads as U+FFFD; NUL, which text columns refuse, goes. */
export function answerExcerpt(head: Buffer): string | null {
  if (!head.length) return null;
  return new TextDecoder('utf-8').decode(head.subarray(0, RESPONSE_EXCERPT_BYTES)).replaceAll('\u0000', '');
}

/** A kept-alive connection the receiver closed just as it was reused: the POST is sent once more, on another. */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE']);

type Failure = Error & { code?: string; staleSocket?: boolean };

/**
 * One HTTPS POST of a signed envelope. The target is resolved and checked (SSRF) right before every try, and
 * the request goes through the keep-alive agent of exactly the checked addresses (target-agents.ts): a reused
 * connection is one to an address this try's check passed. Redirects are not followed: a 3xx is a failed
 * attempt. Webhook timing is real time in both environments (docs/webhooks.md), so this reads the system
 * clock on purpose.
 */
@Injectable()
export class WebhookSender implements OnApplicationShutdown {
  private readonly agents: TargetAgents;

  constructor(@Inject(WEBHOOK_OPTIONS) private readonly options: WebhookOptions) {
    this.agents = new TargetAgents(options.extraCa ? [...rootCertificates, options.extraCa] : undefined);
  }

  onApplicationShutdown(): void {
    this.agents.destroy();
  }

  async send(req: WebhookRequest): Promise<SendOutcome> {
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    let target;
    try {
      target = await resolveTarget(req.url, {
        allowPrivate: this.options.allowPrivateTargets,
        requireResolution: true,
        resolver: this.options.resolver,
        isPublic: this.options.isPublicAddress,
      });
    } catch (e) {
      if (!(e instanceof TargetRefused)) throw e;
      return unanswered(elapsed(), e.kind, e.permanent);
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
    const agent = this.agents.agentFor(target.url.origin, isIP(target.host) ? '' : target.host, target.addresses);
    for (let tries = 1; ; tries++) {
      try {
        const { status, excerpt } = await this.post(target.url, target.host, agent, headers, req.body);
        const ok = status >= 200 && status < 300;
        return {
          ok,
          responseStatus: status,
          responseExcerpt: excerpt,
          durationMs: elapsed(),
          error: ok ? null : 'http_status',
          permanent: false,
        };
      } catch (e) {
        if (tries === 1 && (e as Failure).staleSocket) continue;
        return unanswered(elapsed(), deliveryErrorOf(e), false, errorCodeOf(e));
      }
    }
  }

  /** The number of targets with open agents (tests). */
  get targetAgents(): number {
    return this.agents.size;
  }

  private post(url: URL, host: string, agent: Agent, headers: Record<string, string>, body: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = request({
        host,
        port: url.port || 443,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers,
        agent,
      });
      let timer: NodeJS.Timeout | undefined;
      // The timeout runs from when the request has a connection: one waiting for a free one of its target's
      // agent is not yet being answered.
      req.on('socket', () => {
        timer ??= setTimeout(
          () =>
            req.destroy(
              Object.assign(new Error(`no answer within ${this.options.timeoutMs} ms`), { code: 'ETIMEDOUT' }),
            ),
          this.options.timeoutMs,
        );
      });
      let answered = false;
      req.on('response', (res) => {
        answered = true;
        let read = 0;
        const head: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          if (read < RESPONSE_EXCERPT_BYTES) head.push(chunk.subarray(0, RESPONSE_EXCERPT_BYTES - read));
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) res.destroy();
        });
        const done = (): void => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, excerpt: answerExcerpt(Buffer.concat(head)) });
        };
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      });
      req.on('error', (e: Failure) => {
        clearTimeout(timer);
        if (!answered && req.reusedSocket && STALE_SOCKET_CODES.has(e.code ?? '')) e.staleSocket = true;
        reject(e);
      });
      req.end(body);
    });
  }
}
