import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '@app/errors';
import { Metrics } from '@app/observability';
import { clientAddress } from '../http/client-address';
import { rateLimited } from '../http/rate-limited';
import { FixedWindowLimiter } from './rate-limiter';

export const AUTH_FAILURES_PER_MINUTE = Symbol('AUTH_FAILURES_PER_MINUTE');

/**
 * Failed authentications per client address in one-minute windows (AUTH_FAILURES_PER_MINUTE, per gateway
 * replica): past the limit, that address's requests to a guarded route answer 429 before any key, token or
 * database is looked at, so guessing keys costs the guesser, not the database.
 */
@Injectable()
export class AuthFailures {
  private readonly window: FixedWindowLimiter;
  private readonly counted = new WeakSet<object>();

  constructor(
    perMinute: number,
    private readonly metrics: Metrics,
  ) {
    this.window = new FixedWindowLimiter(perMinute, 60_000);
  }

  /** Runs a guard's check for this request: refused first when the address is over the limit. */
  async check<T>(request: Pick<FastifyRequest, 'ip'>, authenticate: () => Promise<T> | T): Promise<T> {
    this.refuseWhenOver(request);
    try {
      return await authenticate();
    } catch (e) {
      if (e instanceof DomainError && e.code === 'AUTH_INVALID') this.fail(request);
      throw e;
    }
  }

  /** 429 RATE_LIMITED (with Retry-After) when the request's address has used up its failures. */
  refuseWhenOver(request: Pick<FastifyRequest, 'ip'>): void {
    const over = this.window.exhausted(clientAddress(request), Date.now());
    if (over) {
      this.metrics.authAttemptBlocked();
      throw rateLimited('Too many failed authentications from this address; wait before trying again', over);
    }
  }

  /** Counts a failure for the request's address: once per request, however many checks saw it fail. */
  fail(request: Pick<FastifyRequest, 'ip'>): void {
    if (this.counted.has(request)) return;
    this.counted.add(request);
    this.window.add(clientAddress(request), Date.now());
  }
}
