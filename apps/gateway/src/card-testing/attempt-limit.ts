import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock, uuidv7 } from '@app/clock';
import type { RateLimitState } from '../http/rate-limited';
import { BlockScope, CheckoutAttempt, CheckoutAttemptsRepository } from './checkout-attempts.repository';

export const CARD_TESTING_LIMITS = Symbol('CARD_TESTING_LIMITS');

export interface CardTestingLimits {
  /** Attempts counted against one client address (CHECKOUT_DECLINES_PER_ADDRESS; 0 is off). */
  perAddress: number;
  /** Attempts counted against one payment link (CHECKOUT_DECLINES_PER_LINK; 0 is off). */
  perLink: number;
  /** How long a decline counts (CHECKOUT_DECLINE_WINDOW_SECONDS). */
  windowSeconds: number;
  /** How long an attempt never settled (its replica stopped) holds its place: longer than any pay call. */
  inFlightSeconds: number;
}

/** A refusal: the scope whose limit is reached and what the 429 tells the client. */
export interface Closed extends RateLimitState {
  scope: BlockScope;
}

/** How an attempt ended, as the limit counts it. */
export type Settlement =
  | { kind: 'declined' }
  | { kind: 'released' }
  /** Waiting for the payer's 3DS challenge until `endsAt`; unfinished by then, it counts as a decline. */
  | { kind: 'challenge'; sessionId: string; endsAt: Date };

/**
 * The card-testing limit's mechanics, in the gateway's database so that every replica counts the same
 * attempts. An attempt takes its place before it runs (`reserve`, refused once its address or its link has
 * as many attempts counting as the limit allows), and its outcome then settles the place: a decline counts
 * for the window, a 3DS challenge holds the place while its session lasts and counts as a decline once it
 * ended unfinished, anything else gives the place back. So attempts in flight count too, and a burst of
 * parallel attempts gets no more places than the limit. A place never settled lapses after `inFlightSeconds`.
 */
@Injectable()
export class CheckoutAttemptLimit {
  constructor(
    @Inject(CARD_TESTING_LIMITS) readonly limits: CardTestingLimits,
    private readonly attempts: CheckoutAttemptsRepository,
    private readonly clock: Clock,
  ) {}

  get enabled(): boolean {
    return this.limits.perAddress > 0 || this.limits.perLink > 0;
  }

  /** The refusal of a new attempt from `address` on `linkId`, or null; a read, it reserves nothing. */
  check(address: string, linkId: string): Promise<Closed | null> {
    return this.attempts.transaction((m) => this.closed(m, address, linkId, this.clock.now()));
  }

  /** A place for one attempt, or the refusal; the place is taken under both keys' locks, so counts stay true. */
  reserve(address: string, linkId: string): Promise<{ id: string } | Closed> {
    return this.attempts.transaction(async (m) => {
      const now = this.clock.now();
      await this.attempts.lockKeys(m, address, linkId);
      const closed = await this.closed(m, address, linkId, now);
      if (closed) return closed;
      const id = uuidv7();
      await this.attempts.insert(m, {
        id,
        address,
        linkId,
        state: 'in_flight',
        sessionId: null,
        challengeEndsAt: null,
        countsUntil: new Date(now.getTime() + this.limits.inFlightSeconds * 1000),
        createdAt: now,
      });
      return { id };
    });
  }

  /** Settles a reserved place; answers the scopes this very decline closed. */
  settle(id: string, to: Settlement): Promise<Closed[]> {
    return this.attempts.transaction(async (m) => {
      const found = await this.attempts.byId(m, id);
      if (!found) return [];
      await this.attempts.lockKeys(m, found.address, found.linkId);
      return this.apply(m, found, to);
    });
  }

  /**
   * Settles the attempt waiting on 3DS session `sessionId` of `linkId`. A decline of an attempt the limit
   * no longer holds counts from `address` all the same.
   */
  settleSession(address: string, linkId: string, sessionId: string, to: Settlement): Promise<Closed[]> {
    return this.attempts.transaction(async (m) => {
      const found = await this.attempts.bySession(m, linkId, sessionId);
      await this.attempts.lockKeys(m, found?.address ?? address, linkId);
      const attempt = found && (await this.attempts.byId(m, found.id));
      if (attempt) return this.apply(m, attempt, to);
      if (to.kind !== 'declined') return [];
      const now = this.clock.now();
      await this.attempts.insert(m, { ...this.declinedAt(now), id: uuidv7(), address, linkId, createdAt: now });
      return this.closedBy(m, address, linkId, now);
    });
  }

  private async apply(m: EntityManager, a: CheckoutAttempt, to: Settlement): Promise<Closed[]> {
    const now = this.clock.now();
    if (to.kind === 'released') {
      await this.attempts.delete(m, a.id);
      return [];
    }
    if (to.kind === 'challenge') {
      const countsUntil = new Date(to.endsAt.getTime() + this.limits.windowSeconds * 1000);
      await this.attempts.update(m, a.id, {
        state: 'challenge',
        sessionId: to.sessionId,
        challengeEndsAt: to.endsAt,
        countsUntil,
      });
      return [];
    }
    if (a.state === 'declined') return [];
    await this.attempts.update(m, a.id, { ...this.declinedAt(now), sessionId: a.sessionId });
    return this.closedBy(m, a.address, a.linkId, now);
  }

  private declinedAt(now: Date): Omit<CheckoutAttempt, 'id' | 'address' | 'linkId' | 'createdAt'> {
    return {
      state: 'declined',
      sessionId: null,
      challengeEndsAt: null,
      countsUntil: new Date(now.getTime() + this.limits.windowSeconds * 1000),
    };
  }

  /** The scopes whose declines, with the one just settled, now reach their limit exactly: a block begins. */
  private async closedBy(m: EntityManager, address: string, linkId: string, now: Date): Promise<Closed[]> {
    const closed: Closed[] = [];
    for (const [scope, key, limit] of this.scopes(address, linkId)) {
      if ((await this.attempts.declines(m, scope, key, now)) !== limit) continue;
      closed.push(this.refusal(scope, limit, await this.attempts.counting(m, scope, key, now), now));
    }
    return closed;
  }

  private async closed(m: EntityManager, address: string, linkId: string, now: Date): Promise<Closed | null> {
    for (const [scope, key, limit] of this.scopes(address, linkId)) {
      const counting = await this.attempts.counting(m, scope, key, now);
      if (counting.length >= limit) return this.refusal(scope, limit, counting, now);
    }
    return null;
  }

  /** Refused until enough of the attempts counting stop counting to leave one place. */
  private refusal(scope: BlockScope, limit: number, counting: Date[], now: Date): Closed {
    const frees = counting[Math.max(0, counting.length - limit)];
    return { scope, limit, remaining: 0, resetSeconds: (frees.getTime() - now.getTime()) / 1000 };
  }

  private scopes(address: string, linkId: string): Array<[BlockScope, string, number]> {
    const all: Array<[BlockScope, string, number]> = [
      ['address', address, this.limits.perAddress],
      ['link', linkId, this.limits.perLink],
    ];
    return all.filter(([, , limit]) => limit > 0);
  }
}
