import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DueWork, inTransaction } from '@app/database';
import { ExpiryWork } from '@app/platform';
import { LinkRecorder } from './link-recorder';
import { isDue, move } from './payment-link-state';
import { PaymentLinkEntity } from './payment-link.entity';
import { PaymentLinkRepository, Scope } from './payment-link.repository';

/**
 * A link moves to `expired` when its `expiresAt` passes: on read (a link read after its expiry
 * is expired then, its event stamped with the expiry instant), by a periodic sweep (FOR UPDATE SKIP LOCKED,
 * so replicas never expire one twice; the `link_expiry` sweep, an ExpirySweepLoop), and by a sandbox clock advance (each as of its own
 * expiry).
 */
@Injectable()
export class LinkExpiry implements ExpiryWork<PaymentLinkEntity> {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly links: PaymentLinkRepository,
    private readonly recorder: LinkRecorder,
  ) {}

  /** The links whose expiry passed by `now`. */
  claimDue(manager: EntityManager, now: Date, limit: number, scope?: Scope): Promise<PaymentLinkEntity[]> {
    return this.links.claimDue(manager, now, limit, { scope });
  }

  /** One merchant's sandbox links due by a clock advance's new time. */
  dueWork(scope: Scope): DueWork<PaymentLinkEntity> {
    return {
      claim: (manager, upTo, limit) => this.links.claimDue(manager, upTo, limit, { scope, waitForLocks: true }),
      dueAt: (link) => link.expiresAt!,
      run: (manager, link) => this.expire(manager, link),
    };
  }

  /** The link as a reader at `now` must see it: expired (and recorded so) when its expiry passed. */
  async current(link: PaymentLinkEntity, now: Date): Promise<PaymentLinkEntity> {
    if (!isDue(link, now)) return link;
    return inTransaction(this.db, async (manager) => {
      const locked = await this.links.lock(manager, link.id);
      if (isDue(locked, now)) await this.expire(manager, locked);
      return locked;
    });
  }

  /** Expires a locked, due link as of its expiry instant. */
  async expire(manager: EntityManager, link: PaymentLinkEntity): Promise<unknown> {
    const at = link.expiresAt!;
    const event = move(link, 'expire');
    link.updatedAt = at;
    return this.recorder.changed(manager, link, event, at);
  }
}
