import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '@app/clock';
import { CallerContext, PaymentMethod } from '@app/contracts';
import { DomainError } from '@app/errors';
import { TtlCache } from '@app/platform';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';
import { ConnectionEntity } from './connection.entity';
import { ConnectionHealth } from '../connector/connection-health';
import { isSimulatedProduction } from './connection-rules';
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
 * Which connections a payment goes to: the pinned one, or the first that accepts the currency and method by
 * priority (those whose circuit is open last) plus the next one for a single cascade after a `retry` decline.
 * A payment no connection accepts is refused here, before anything is reserved: 422 NO_CONNECTION.
 */
@Injectable()
export class RoutingService {
  /** Scopes whose default connection exists already: it is created once, on first use. */
  private readonly ensured = new Set<string>();
  /** Connections by scope, read at most every CONNECTIONS_CACHE_MS: a purchase does not read them each time. */
  private readonly cache = new TtlCache<string, ConnectionEntity[]>(CONNECTIONS_CACHE_MS);

  constructor(
    private readonly connections: ConnectionRepository,
    private readonly health: ConnectionHealth,
    private readonly clock: Clock,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
  ) {}

  async connectionsOf(ctx: CallerContext, { fresh = false } = {}): Promise<ConnectionEntity[]> {
    const key = `${ctx.environment}:${ctx.merchantCode}`;
    const cached = fresh ? undefined : this.cache.get(key, Date.now());
    if (cached) return cached;
    if (!this.ensured.has(key)) {
      // Sandbox only: production has no connection until the operator adds one (docs/connectors.md).
      if (ctx.environment === 'sandbox') {
        await this.connections.ensureDefault({ ...ctx, environment: 'sandbox' }, this.clock.now(ctx));
      }
      this.ensured.add(key);
    }
    const readAt = Date.now();
    const listed = await this.connections.list(ctx);
    const connections =
      this.config.NODE_ENV === 'production' ? listed.filter((c) => !isSimulatedProduction(c)) : listed;
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
      if (!pinned) {
        if (!all.length) throw noConnection(ctx, request);
        throw DomainError.notFound('connection', 'connectionCode');
      }
      if (!accepts(pinned, request)) {
        throw DomainError.validation(
          `Connection ${pinned.connectionCode} does not accept ${request.method} payments in ${request.currency}`,
          'connectionCode',
        );
      }
      return [pinned];
    }
    const matching = all.filter((c) => accepts(c, request));
    if (!matching.length) throw noConnection(ctx, request);
    const declined = new Set(request.declinedLast ?? []);
    const last = (c: ConnectionEntity) => declined.has(c.connectionCode) || this.health.isOpen(c.id);
    const ordered = [...matching.filter((c) => !last(c)), ...matching.filter(last)];
    return ordered.slice(0, 2);
  }
}

function noConnection(ctx: CallerContext, r: RouteRequest): DomainError {
  return new DomainError(
    'NO_CONNECTION',
    `No ${ctx.environment} connection accepts ${r.method} payments in ${r.currency}` +
      (ctx.environment === 'production' ? ': an operator adds one through the admin connections route' : ''),
    'amount.currency',
  );
}
