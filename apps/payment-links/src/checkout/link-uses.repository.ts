import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { LinkUseEntity } from './link-use.entity';

/** The uses (attempts to pay) of links; callers hold the link's row lock when they count or add one. */
@Injectable()
export class LinkUsesRepository {
  async insert(manager: EntityManager, use: LinkUseEntity): Promise<void> {
    await manager.insert(LinkUseEntity, use);
  }

  async update(manager: EntityManager, use: LinkUseEntity): Promise<void> {
    const { id, ...fields } = use;
    await manager.update(LinkUseEntity, { id }, fields);
  }

  /** Reservations that still hold a place at `now`. */
  async live(manager: EntityManager, linkId: string, now: Date): Promise<number> {
    const rows: { n: string }[] = await manager.query(
      `SELECT count(*) AS n FROM payment_link_uses
       WHERE link_id = $1 AND status = 'reserved' AND reserved_until > $2`,
      [linkId, now],
    );
    return Number(rows[0].n);
  }

  /**
   * Reservations whose time ran out by `now`, earliest first, leased for `leaseMs` (their place held again
   * while they are checked); replicas skip rows another one holds (FOR UPDATE SKIP LOCKED). Each comes with the
   * traceparent of the request that reserved it (null with tracing off).
   */
  async claimLapsed(manager: EntityManager, now: Date, leaseMs: number, limit: number): Promise<LinkUseEntity[]> {
    const uses = await manager
      .getRepository(LinkUseEntity)
      .createQueryBuilder('u')
      .addSelect('u.traceParent')
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .where("u.status = 'reserved' AND u.reserved_until <= :now", { now })
      .orderBy('u.reserved_until', 'ASC')
      .limit(limit)
      .getMany();
    if (uses.length) {
      await manager.query('UPDATE payment_link_uses SET reserved_until = $2 WHERE id = ANY($1)', [
        uses.map((u) => u.id),
        new Date(now.getTime() + leaseMs),
      ]);
    }
    return uses;
  }

  lock(manager: EntityManager, id: string): Promise<LinkUseEntity | null> {
    return manager
      .getRepository(LinkUseEntity)
      .createQueryBuilder('u')
      .setLock('pessimistic_write')
      .where('u.id = :id', { id })
      .getOne();
  }

  /** The use of a link that is waiting on this 3DS session. */
  bySession(manager: EntityManager, linkId: string, sessionId: string): Promise<LinkUseEntity | null> {
    return manager.getRepository(LinkUseEntity).findOneBy({ linkId, sessionId });
  }
}
