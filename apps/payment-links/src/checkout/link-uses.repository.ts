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
