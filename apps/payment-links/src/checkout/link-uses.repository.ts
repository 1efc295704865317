import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { entityInsert, entitySelect, entityUpdateMany, runStatement, statement } from '@app/database';
import { LinkUseEntity } from './link-use.entity';

const insertUse = entityInsert(LinkUseEntity, 'payment_link_uses_insert');
const updateUses = entityUpdateMany(LinkUseEntity, 'payment_link_uses_update');
const LIVE = statement(
  'payment_link_uses_live',
  `SELECT count(*) AS n FROM payment_link_uses
    WHERE link_id = $1 AND status = 'reserved' AND reserved_until > $2`,
);
const LEASE = statement(
  'payment_link_uses_lease',
  'UPDATE payment_link_uses SET reserved_until = $2 WHERE id = ANY($1)',
);
const lapsed = entitySelect(
  LinkUseEntity,
  'payment_link_uses_lapsed',
  `status = 'reserved' AND reserved_until <= $1 ORDER BY reserved_until LIMIT $2 FOR UPDATE SKIP LOCKED`,
);
const byId = entitySelect(LinkUseEntity, 'payment_link_uses_by_id', 'id = $1');
const locked = entitySelect(LinkUseEntity, 'payment_link_uses_lock', 'id = $1 FOR UPDATE');
const bySession = entitySelect(
  LinkUseEntity,
  'payment_link_uses_by_session',
  'link_id = $1 AND session_id = $2 LIMIT 1',
);

/** The uses (attempts to pay) of links; callers hold the link's row lock when they count or add one. */
@Injectable()
export class LinkUsesRepository {
  /** Sent at once, checked with the commit of the caller's transaction. */
  insert(manager: EntityManager, use: LinkUseEntity): Promise<void> {
    return insertUse(manager, use);
  }

  /** Every column but those written once (`update: false`), by id. */
  update(manager: EntityManager, use: LinkUseEntity): Promise<void> {
    return updateUses(manager, [use]);
  }

  /** Reservations that still hold a place at `now`. */
  async live(manager: EntityManager, linkId: string, now: Date): Promise<number> {
    const rows = await runStatement<{ n: string }>(manager, LIVE, [linkId, now]);
    return Number(rows[0].n);
  }

  /**
   * Reservations whose time ran out by `now`, earliest first, leased for `leaseMs` (their place held again
   * while they are checked); replicas skip rows another one holds (FOR UPDATE SKIP LOCKED). Each comes with the
   * traceparent of the request that reserved it (null with tracing off).
   */
  async claimLapsed(manager: EntityManager, now: Date, leaseMs: number, limit: number): Promise<LinkUseEntity[]> {
    const uses = await lapsed(manager, [now, limit]);
    if (uses.length) {
      await runStatement(manager, LEASE, [uses.map((u) => u.id), new Date(now.getTime() + leaseMs)]);
    }
    return uses;
  }

  async find(manager: EntityManager, id: string): Promise<LinkUseEntity | null> {
    const [use] = await byId(manager, [id]);
    return use ?? null;
  }

  async lock(manager: EntityManager, id: string): Promise<LinkUseEntity | null> {
    const [use] = await locked(manager, [id]);
    return use ?? null;
  }

  /** The use of a link that is waiting on this 3DS session. */
  async bySession(manager: EntityManager, linkId: string, sessionId: string): Promise<LinkUseEntity | null> {
    const [use] = await bySession(manager, [linkId, sessionId]);
    return use ?? null;
  }
}
