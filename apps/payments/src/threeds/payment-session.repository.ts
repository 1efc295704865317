import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, LessThanOrEqual } from 'typeorm';
import { runStatement, statement } from '@app/database';
import { ClaimOptions } from '../payment/payment.repository';
import { PaymentSession, SessionKind } from './payment-session.entity';
import { moveThreeDs } from './session-state';

const PAYMENT_ACQUIRER = statement('payments_acquirer', 'SELECT acquirer FROM payments WHERE id = $1');

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

  /** A session used up by a resume that never reached the acquirer is usable again, as the challenge left it. */
  async reopen(manager: EntityManager, id: string): Promise<void> {
    const session = await this.lock(manager, id);
    if (session?.status !== 'consumed') return;
    moveThreeDs(session, session.outcome === 'authenticated' ? 'reopen_authenticated' : 'reopen_failed');
    session.consumedAt = null;
    await this.save(manager, session);
  }

  /**
   * 3DS sessions past their expiry that nobody resumed, earliest first, claimed so any number of replicas
   * sweep once (a clock advance waits for locked rows instead of skipping them, see ClaimOptions).
   */
  claimExpired(manager: EntityManager, now: Date, limit: number, o: ClaimOptions = {}): Promise<PaymentSession[]> {
    const q = manager
      .getRepository(PaymentSession)
      .createQueryBuilder('s')
      .addSelect('s.traceParent')
      .setLock('pessimistic_write')
      .where({
        kind: 'threeds',
        status: In(['pending', 'authenticated', 'failed']),
        expiresAt: LessThanOrEqual(now),
        ...(o.scope ? { merchantCode: o.scope.merchantCode, environment: o.scope.environment } : {}),
      });
    if (!o.waitForLocks) q.setOnLocked('skip_locked');
    return q.orderBy('s.expires_at').addOrderBy('s.id').limit(limit).getMany();
  }

  /** The acquirer of a session's payment, checked where a simulated page acts on it. */
  async paymentOf(manager: EntityManager, s: PaymentSession): Promise<{ acquirer: string } | undefined> {
    const [row] = await runStatement<{ acquirer: string }>(manager, PAYMENT_ACQUIRER, [s.paymentId]);
    return row;
  }
}
