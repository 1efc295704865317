/* eslint-disable @typescript-eslint/no-require-imports */

/**
 * nats.js 2.x settles a request's answer and then always calls `cancel()`, which builds a `Cancelled`
 * NatsError (an Error with a captured stack trace) to reject a promise that is settled already: one thrown-
 * away Error per request that succeeded. In the renewal bench that was ~7% of billing's CPU (every MIT charge
 * and every JetStream publish is a request). This replaces `RequestOne.prototype.resolver`
 * (lib/nats-base-client/request.js) with the same code minus that Error: the timer is cancelled, the answer
 * settles the promise, the request leaves the mux. A request cancelled before its answer is untouched.
 *
 * If the class or its fields change shape, it leaves the library as it is and says so (`false`), and the unit
 * test of this file fails.
 */
interface RequestOne {
  timer?: { cancel(): void };
  ctx?: Error;
  deferred: { resolve(msg: unknown): void; reject(err: unknown): void };
  mux: { cancel(r: RequestOne): void };
}

let applied: boolean | undefined;

export function settleNatsRequestsQuietly(): boolean {
  if (applied !== undefined) return applied;
  const { RequestOne } = require('nats/lib/nats-base-client/request');
  const proto = RequestOne?.prototype;
  if (typeof proto?.resolver !== 'function' || typeof proto?.cancel !== 'function') return (applied = false);
  proto.resolver = function resolver(this: RequestOne, err: (Error & { stack?: string }) | null, msg: unknown) {
    if (this.timer) this.timer.cancel();
    if (err) {
      if (this.ctx) err.stack += `\n\n${this.ctx.stack}`;
      this.deferred.reject(err);
    } else {
      this.deferred.resolve(msg);
    }
    this.mux.cancel(this);
  };
  return (applied = true);
}
