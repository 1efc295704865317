/* eslint-disable @typescript-eslint/no-require-imports */
import { patchNatsMethod } from './nats-patch';

/**
 * nats.js 2.x settles a request's answer and then always calls `cancel()`, which builds a `Cancelled`
 * NatsError (an Error with a captured stack trace) to reject a promise that is settled already: one thrown-
 * away Error per request that succeeded. In the renewal bench that was ~7% of billing's CPU (every MIT charge
 * and every JetStream publish is a request). This replaces `RequestOne.prototype.resolver`
 * (lib/nats-base-client/request.js) with the same code minus that Error: the timer is cancelled, the answer
 * settles the promise, the request leaves the mux. A request cancelled before its answer is untouched.
 *
 * The replaced method is checked first (patchNatsMethod): a nats upgrade that changed it stops the service at
 * start.
 */
interface RequestOne {
  timer?: { cancel(): void };
  ctx?: Error;
  deferred: { resolve(msg: unknown): void; reject(err: unknown): void };
  mux: { cancel(r: RequestOne): void };
}

function resolver(this: RequestOne, err: (Error & { stack?: string }) | null, msg: unknown): void {
  if (this.timer) this.timer.cancel();
  if (err) {
    if (this.ctx) err.stack += `\n\n${this.ctx.stack}`;
    this.deferred.reject(err);
  } else {
    this.deferred.resolve(msg);
  }
  this.mux.cancel(this);
}

export function settleNatsRequestsQuietly(
  proto: Record<string, unknown> | undefined = require('nats/lib/nats-base-client/request').RequestOne?.prototype,
): void {
  patchNatsMethod({
    target: 'RequestOne.prototype.resolver (nats/lib/nats-base-client/request.js)',
    proto,
    method: 'resolver',
    sourceSha256: '656dd9f19ea6675da21cff0525b8672ba6ceccb600ace198c1245275b88ecef8',
    uses: ['cancel'],
    replacement: resolver,
  });
}
