import { Injectable } from '@nestjs/common';
import { Clock } from '@app/clock';
import { CallerContext, PaymentMethod } from '@app/contracts';
import { DomainError } from '@app/errors';
import { TtlCache } from '@app/platform';
import { ConnectionEntity } from './connection.entity';
import { ConnectionRepository } from './connection.repository';

export interface RouteRequest {
  currency: string;
  method: PaymentMethod;
  /** Pins one connection: no routing, no cascade. */
  connectionCode?: string;
  /**
   * The connections that declined this charge's previous attempt (billing's dunning and forced retries): the
   * others come first, so a retry starts where it was not refused last time; these stay as the fallback.
   */
  declinedLast?: readonly string[];
}

const accepts = (c: ConnectionEntity, r: RouteRequest): boolean =>
  (c.currencies.length === 0 || c.currencies.includes(r.currency)) &&
  (c.methods.length === 0 || c.methods.includes(r.method));

/** How long a replica routes with the connections it read: an admin change on another replica shows within it. */
export const CONNECTIONS_CACHE_MS = 5_000;

/**
 * Which connections a payment goes to: the pinned one, or the first that accepts the
 * currency and method by priority plus the next one for a single cascade after a `retry` decline.
 */
@Injectable()
export class RoutingService {
  /** Scopes whose default connection exists already: it is created once, on first use. */
  private readonly ensured = new Set<string>();
  /** Connections by scope, read at most every CONNECTIONS_CACHE_MS: a purchase does not read them each time. */
  private readonly cache = new TtlCache<string, ConnectionEntity[]>(CONNECTIONS_CACHE_MS);

  constructor(
    private readonly connections: ConnectionRepository,
    private readonly clock: Clock,
  ) {}

  async connectionsOf(ctx: CallerContext, { fresh = false } = {}): Promise<ConnectionEntity[]> {
    const key = `${ctx.environment}:${ctx.merchantCode}`;
    const cached = fresh ? undefined : this.cache.get(key, Date.now());
    if (cached) return cached;
    if (!this.ensured.has(key)) {
      await this.connections.ensureDefault(ctx, this.clock.now(ctx));
      this.ensured.add(key);
    }
    const readAt = Date.now();
    const connections = await this.connections.list(ctx);
    this.cache.set(key, connections, readAt);
    return connections;
  }

  /** After a change on this replica: the next payment routes with it at once. */
  forget(ctx: CallerContext): void {
    this.cache.delete(`${ctx.environment}:${ctx.merchantCode}`);
  }

  /**
   * The connections to try, in order: one when pinned, at most two otherwise (by priority, those that
   * declined the previous attempt last).
   */
  async route(ctx: CallerContext, request: RouteRequest): Promise<ConnectionEntity[]> {
    const all = await this.connectionsOf(ctx);
    if (request.connectionCode !== undefined) {
      const pinned = all.find((c) => c.connectionCode === request.connectionCode);
      if (!pinned) throw DomainError.notFound('connection', 'connectionCode');
      if (!accepts(pinned, request)) {
        throw DomainError.validation(
          `Connection ${pinned.connectionCode} does not accept ${request.method} payments in ${request.currency}`,
          'connectionCode',
        );
      }
      return [pinned];
    }
    const matching = all.filter((c) => accepts(c, request));
    if (!matching.length) {
      throw DomainError.validation(
        `No connection accepts ${request.method} payments in ${request.currency}`,
        'amount.currency',
      );
    }
    const declined = new Set(request.declinedLast ?? []);
    const ordered = [
      ...matching.filter((c) => !declined.has(c.connectionCode)),
      ...matching.filter((c) => declined.has(c.connectionCode)),
    ];
    return ordered.slice(0, 2);
  }
}
