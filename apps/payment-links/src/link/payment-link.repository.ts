import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CallerContext, LinkStatus } from '@app/contracts';
import { DomainError } from '@app/errors';
import { PaymentLinkEntity } from './payment-link.entity';

export type Scope = Pick<CallerContext, 'merchantCode' | 'environment'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

export const linkNotFound = (param = 'id'): DomainError => DomainError.notFound('payment link', param);

export interface ClaimOptions {
  /** One merchant's sandbox (a clock advance); every link when absent (the periodic sweep). */
  scope?: Scope;
  /** A clock advance waits for rows another transaction holds instead of skipping them. */
  waitForLocks?: boolean;
}

/** Payment link SQL: scoping by merchant and environment, and the row locks of payers and sweeps. */
@Injectable()
export class PaymentLinkRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(manager: EntityManager, link: PaymentLinkEntity): Promise<void> {
    await manager.insert(PaymentLinkEntity, link);
  }

  async update(manager: EntityManager, link: PaymentLinkEntity): Promise<void> {
    const { id, ...fields } = link;
    await manager.update(PaymentLinkEntity, { id }, fields);
  }

  /** The link of this merchant and environment; 404 otherwise (another merchant's link is unknown here). */
  async get(scope: Scope, id: string): Promise<PaymentLinkEntity> {
    const link = isUuid(id)
      ? await this.db
          .getRepository(PaymentLinkEntity)
          .findOneBy({ id, merchantCode: scope.merchantCode, environment: scope.environment })
      : null;
    if (!link) throw linkNotFound();
    return link;
  }

  /** By id alone, for the keyless checkout paths where the id is the credential. */
  async getKeyless(id: string): Promise<PaymentLinkEntity> {
    const link = isUuid(id) ? await this.db.getRepository(PaymentLinkEntity).findOneBy({ id }) : null;
    if (!link) throw linkNotFound();
    return link;
  }

  /** The link, row-locked until the transaction ends; 404 unless it is in `scope` (when given). */
  async lock(manager: EntityManager, id: string, scope?: Scope): Promise<PaymentLinkEntity> {
    if (!isUuid(id)) throw linkNotFound();
    const q = manager
      .getRepository(PaymentLinkEntity)
      .createQueryBuilder('l')
      .setLock('pessimistic_write')
      .where('l.id = :id', { id });
    if (scope)
      q.andWhere('l.merchant_code = :m AND l.environment = :e', { m: scope.merchantCode, e: scope.environment });
    const link = await q.getOne();
    if (!link) throw linkNotFound();
    return link;
  }

  /** Newest first, like every list; `startingAfter` is the last id of the previous page. */
  list(scope: Scope, o: { limit: number; startingAfter?: string; status?: LinkStatus }): Promise<PaymentLinkEntity[]> {
    const q = this.db
      .getRepository(PaymentLinkEntity)
      .createQueryBuilder('l')
      .where('l.merchant_code = :m AND l.environment = :e', { m: scope.merchantCode, e: scope.environment });
    if (o.status !== undefined) q.andWhere('l.status = :status', { status: o.status });
    if (o.startingAfter !== undefined) {
      if (!isUuid(o.startingAfter)) throw linkNotFound('startingAfter');
      q.andWhere(
        '(l.created_at, l.id) < (SELECT c.created_at, c.id FROM payment_links c WHERE c.id = :after AND c.merchant_code = :m AND c.environment = :e)',
        { after: o.startingAfter },
      );
    }
    return q.orderBy('l.created_at', 'DESC').addOrderBy('l.id', 'DESC').limit(o.limit).getMany();
  }

  /**
   * Active links whose expiry passed by `upTo`, earliest first, row-locked. Sweeper replicas skip rows another
   * one holds (FOR UPDATE SKIP LOCKED); a clock advance waits for them.
   */
  claimDue(manager: EntityManager, upTo: Date, limit: number, o: ClaimOptions = {}): Promise<PaymentLinkEntity[]> {
    const q = manager
      .getRepository(PaymentLinkEntity)
      .createQueryBuilder('l')
      .addSelect('l.traceParent')
      .setLock('pessimistic_write')
      .where("l.status = 'active' AND l.expires_at IS NOT NULL AND l.expires_at <= :upTo", { upTo });
    if (!o.waitForLocks) q.setOnLocked('skip_locked');
    if (o.scope) {
      q.andWhere('l.merchant_code = :m AND l.environment = :e', { m: o.scope.merchantCode, e: o.scope.environment });
    }
    return q.orderBy('l.expires_at', 'ASC').addOrderBy('l.id', 'ASC').limit(limit).getMany();
  }
}
