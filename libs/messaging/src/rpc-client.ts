import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode as NatsErrorCode, NatsConnection, NatsError } from 'nats';
import { CallerContext, CommandMessage } from '@app/contracts';
import { DomainError, fromRpcError, isRpcErrorPayload } from '@app/errors';
import { inSpan, SpanKind, tracingOn } from '@app/observability';
import { NatsClient } from './nats-connection';
import { messagingAttributes, traceHeaders } from './trace-headers';

export const RPC_TIMEOUT_MS = Symbol('RPC_TIMEOUT_MS');

let sequence = 0;
/** How long a request waits for the app's first connection to NATS (made at start) before answering 503. */
const FIRST_CONNECTION_WAIT_MS = 2_000;

/**
 * Request-reply to a service. Speaks the NestJS NATS packet format (`{pattern, data, id}` out,
 * `{id, response | err}` back) over the connection's shared inbox, which is cheaper than the stock
 * ClientProxy's subscription per request. No responders → 503 SERVICE_UNAVAILABLE at once; no answer in
 * time → 504 UPSTREAM_TIMEOUT whose message says the outcome is unknown (the service may have done it and
 * answered too late); a service error comes back as the DomainError it threw.
 */
@Injectable()
export class RpcClient {
  constructor(
    private readonly nats: NatsClient,
    @Inject(RPC_TIMEOUT_MS) private readonly timeoutMs: number,
  ) {}

  send<TRes, TReq = unknown>(subject: string, ctx: CallerContext, body: TReq, timeoutMs?: number): Promise<TRes> {
    if (!tracingOn()) return this.request(subject, ctx, body, timeoutMs);
    // The command's span; its context travels in the message's headers to the service's span.
    return inSpan(subject, { kind: SpanKind.CLIENT, attributes: messagingAttributes(subject, 'send') }, () =>
      this.request<TRes, TReq>(subject, ctx, body, timeoutMs),
    );
  }

  private async request<TRes, TReq>(
    subject: string,
    ctx: CallerContext,
    body: TReq,
    timeoutMs?: number,
  ): Promise<TRes> {
    // While the broker is unreachable a request would wait in the client's buffer and end as a timeout whose
    // outcome looks unknown; nothing was sent, so it is answered 503 at once.
    const nc = this.nats.current() ?? (await this.firstConnection());
    if (!this.nats.connected()) throw brokerUnreachable();
    const message: CommandMessage<TReq> = { ctx, body };
    const packet = JSON.stringify({ pattern: subject, data: message, id: `${process.pid}-${++sequence}` });
    let reply;
    try {
      reply = await nc.request(subject, Buffer.from(packet), {
        timeout: timeoutMs ?? this.timeoutMs,
        headers: traceHeaders(),
      });
    } catch (e) {
      throw toTransportError(e, subject);
    }
    const decoded = JSON.parse(Buffer.from(reply.data).toString('utf8')) as { response?: TRes; err?: unknown };
    if (decoded.err !== undefined && decoded.err !== null) {
      if (isRpcErrorPayload(decoded.err)) throw fromRpcError(decoded.err);
      throw new Error(`Unexpected error from ${subject}: ${JSON.stringify(decoded.err)}`);
    }
    return decoded.response as TRes;
  }

  /** The connection being made at start, or 503 if NATS does not answer soon (an app started during an outage). */
  private firstConnection(): Promise<NatsConnection> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(brokerUnreachable()), FIRST_CONNECTION_WAIT_MS);
      this.nats.get().then(
        (nc) => (clearTimeout(timer), resolve(nc)),
        () => (clearTimeout(timer), reject(brokerUnreachable())),
      );
    });
  }
}

function toTransportError(e: unknown, subject: string): Error {
  const code = (e as NatsError).code;
  const service = subject.split('.')[1] ?? subject;
  if (code === NatsErrorCode.NoResponders) {
    return new DomainError('SERVICE_UNAVAILABLE', `The ${service} service is unavailable`);
  }
  if (code === NatsErrorCode.Timeout) {
    // Unlike a deadline inside a service (nothing recorded), the command may have committed after all.
    return new DomainError(
      'UPSTREAM_TIMEOUT',
      `The ${service} service did not answer in time; the outcome is unknown (it may have been carried out): retry with the same Idempotency-Key to get it`,
    );
  }
  if (code === NatsErrorCode.Disconnect || code === NatsErrorCode.ConnectionClosed) return brokerUnreachable();
  return e as Error;
}

function brokerUnreachable(): DomainError {
  return new DomainError('SERVICE_UNAVAILABLE', 'The message broker is unreachable');
}
