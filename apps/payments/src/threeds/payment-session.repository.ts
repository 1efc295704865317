import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, LessThanOrEqual } from 'typeorm';
import { Environment } from '@app/contracts';
import { PaymentSession, SessionKind } from './payment-session.entity';

type Scope = { merchantCode: string; environment: Environment };

@Injectable()
export class PaymentSessionRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(manager: EntityManager, row: PaymentSession): Promise<void> {
    await manager.insert(PaymentSession, row);
  }

  /** By id alone: keyless callers know nothing else; the row tells the scope. */
  find(id: string, kind?: SessionKind): Promise<PaymentSession | null> {
    return this.db.getRepository(PaymentSession).findOne({ where: kind ? { id, kind } : { id } });
  }

  findByPayment(
    paymentId: string,
    kind: SessionKind,
    manager: EntityManager = this.db.manager,
  ): Promise<PaymentSession | null> {
    return manager.getRepository(PaymentSession).findOne({ where: { paymentId, kind } });
  }

  /** Row lock: completion, resume and the expiry sweep of one session run one at a time. */
  lock(manager: EntityManager, id: string): Promise<PaymentSession | null> {
    return manager
      .getRepository(PaymentSession)
      .createQueryBuilder('s')
      .setLock('pessimistic_write')
      .where('s.id = :id', { id })
      .getOne();
  }

  async save(manager: EntityManager, row: PaymentSession): Promise<void> {
    await manager.save(PaymentSession, row);
  }

  /** 3DS sessions past their expiry that nobody resumed, claimed so any number of replicas sweep once. */
  claimExpired(manager: EntityManager, now: Date, limit: number, scope?: Scope): Promise<PaymentSession[]> {
    return manager
      .getRepository(PaymentSession)
      .createQueryBuilder('s')
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .where({
        kind: 'threeds',
        status: In(['pending', 'authenticated', 'failed']),
        expiresAt: LessThanOrEqual(now),
        ...(scope ? { merchantCode: scope.merchantCode, environment: scope.environment } : {}),
      })
      .orderBy('s.expires_at')
      .limit(limit)
      .getMany();
  }
}
