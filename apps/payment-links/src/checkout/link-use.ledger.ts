import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { PaymentLinkResponse, PayLinkRequest, PaymentResponse } from '@app/contracts';
import { DomainError } from '@app/errors';
import { LOGGER, traceParentOf } from '@app/observability';
import { inTransaction } from '@app/database';
import { LinkExpiry } from '../link/link-expiry.service';
import { LinkRecorder } from '../link/link-recorder';
import { isDue, move, payTrigger } from '../link/payment-link-state';
import { PaymentLinkEntity } from '../link/payment-link.entity';
import { PaymentLinkRepository } from '../link/payment-link.repository';
import { LinkUseEntity } from './link-use.entity';
import { LINK_USE_MACHINE } from './link-use-state';
import { LinkUsesRepository } from './link-uses.repository';
import { amountToPay } from './pay-terms';

/** How long a fresh reservation holds its place: the purchase call's worst case, with room to spare. */
export const RESERVATION_MS = 2 * 60 * 1000;
/** After a 3DS challenge is issued, the reservation lasts as long as the session, plus this. */
export const CHALLENGE_GRACE_MS = 60 * 1000;

export interface Reservation {
  use: LinkUseEntity;
  link: PaymentLinkEntity;
  amountValue: number | null;
}

/** What an attempt ended as, for `settle`. */
export type UseOutcome =
  | { kind: 'paid'; paymentId?: string; subscriptionId?: string }
  | { kind: 'pending'; paymentId: string; sessionId: string; until: Date }
  | { kind: 'failed'; paymentId?: string };

/** The order code of a use's payment: unique per attempt, and how a lost answer is found again. */
export const orderCodeOf = (useId: string): string => `link-${useId}`;

/** A purchase's answer as a use outcome: captured pays, pending_3ds waits, anything else frees the place. */
export function outcomeOf(payment: PaymentResponse): UseOutcome {
  switch (payment.status) {
    case 'captured':
      return { kind: 'paid', paymentId: payment.id };
    case 'pending_3ds':
      return {
        kind: 'pending',
        paymentId: payment.id,
        sessionId: payment.actionRequired!.sessionId,
        until: new Date(Date.parse(payment.actionRequired!.expiresAt) + CHALLENGE_GRACE_MS),
      };
    default:
      return { kind: 'failed', paymentId: payment.id };
  }
}

/**
 * The places of a link, exact under concurrent payers: a use is reserved under the link's row lock (state,
 * amount and capacity checked there), committed, and only then does the caller pay (no transaction open
 * across the NATS call); the attempt's outcome then confirms the use (usesCount, `used` at maxUses) or
 * releases it. Reservations still in flight count against maxUses, so no more payments start than it allows.
 */
@Injectable()
export class LinkUseLedger {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly links: PaymentLinkRepository,
    private readonly uses: LinkUsesRepository,
    private readonly recorder: LinkRecorder,
    private readonly expiry: LinkExpiry,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async reserve(linkId: string, request: PayLinkRequest, now: Date): Promise<Reservation> {
    const result = await inTransaction(this.db, async (manager) => {
      const link = await this.links.lock(manager, linkId);
      if (isDue(link, now)) {
        await this.expiry.expire(manager, link);
        return { expired: true as const };
      }
      if (link.status !== 'active') throw closed(link);
      const amountValue = amountToPay(link, request);
      if (link.maxUses !== null && link.usesCount + (await this.uses.live(manager, link.id, now)) >= link.maxUses) {
        throw DomainError.invalidState('Another payment of this link is in progress; try again in a few minutes');
      }
      const use = Object.assign(new LinkUseEntity(), {
        id: uuidv7(),
        linkId: link.id,
        status: LINK_USE_MACHINE.spec.initial,
        paymentId: null,
        sessionId: null,
        subscriptionId: null,
        amountValue,
        reservedUntil: new Date(now.getTime() + RESERVATION_MS),
        createdAt: now,
        updatedAt: now,
        // With tracing on, the reconcile run that checks this reservation once lapsed links to this request.
        traceParent: traceParentOf(),
      } satisfies LinkUseEntity);
      await this.uses.insert(manager, use);
      return { expired: false as const, reservation: { use, link, amountValue } };
    });
    // The expiry is committed before the refusal answers.
    if (result.expired) throw DomainError.invalidState('This payment link has expired');
    return result.reservation;
  }

  /** Applies an attempt's outcome to its use once; a use already settled answers the link as it stands. */
  settle(useId: string, outcome: UseOutcome, now: Date): Promise<PaymentLinkResponse> {
    return inTransaction(this.db, async (manager) => {
      // Link first, then the use: the order every writer of both takes.
      const found = await this.uses.find(manager, useId);
      if (!found) throw new Error(`No link use ${useId}`);
      const linkId = found.linkId;
      const link = await this.links.lock(manager, linkId);
      const use = (await this.uses.lock(manager, useId))!;
      if (use.status !== 'reserved') return this.recorder.view(link);
      use.updatedAt = now;
      if (outcome.kind === 'pending') {
        Object.assign(use, {
          paymentId: outcome.paymentId,
          sessionId: outcome.sessionId,
          reservedUntil: outcome.until,
        });
        await this.uses.update(manager, use);
        return this.recorder.view(link);
      }
      use.paymentId = outcome.paymentId ?? use.paymentId;
      if (outcome.kind === 'failed') {
        LINK_USE_MACHINE.apply(use, 'release');
        await this.uses.update(manager, use);
        return this.recorder.view(link);
      }
      LINK_USE_MACHINE.apply(use, 'confirm');
      use.subscriptionId = outcome.subscriptionId ?? null;
      await this.uses.update(manager, use);
      const count = link.usesCount + 1;
      const before = link.status;
      const event = move(link, payTrigger(link, count));
      if (link.status === 'used' && before !== 'used') link.usedAt = now;
      link.usesCount = count;
      link.updatedAt = now;
      if (link.maxUses !== null && count > link.maxUses) {
        this.logger.warn(
          { linkId: link.id, useId, usesCount: count, maxUses: link.maxUses },
          'a lapsed payment of a link was captured after its last place was taken',
        );
      }
      return this.recorder.changed(manager, link, event, now);
    });
  }

  /** The reserved use of `linkId` waiting on a 3DS session; 404 for any other session. */
  async pendingBySession(linkId: string, sessionId: string): Promise<LinkUseEntity> {
    const use = await this.uses.bySession(this.db.manager, linkId, sessionId);
    if (!use || !use.paymentId) throw DomainError.notFound('3DS session of this payment link', 'sessionId');
    return use;
  }
}

function closed(link: PaymentLinkEntity): DomainError {
  const why = { used: 'has been used', expired: 'has expired', cancelled: 'was cancelled', active: '' }[link.status];
  return DomainError.invalidState(`This payment link ${why}`);
}
