import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CallerContext, LinkStatus } from '@app/contracts';
import { entityInsert, entitySelect, entityUpdateMany } from '@app/database';
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

const insertLink = entityInsert(PaymentLinkEntity, 'payment_links_insert');
const updateLinks = entityUpdateMany(PaymentLinkEntity, 'payment_links_update');
const inScope = entitySelect(
  PaymentLinkEntity,
  'payment_links_in_scope',
  'id = $1 AND merchant_code = $2 AND environment = $3',
);
const byId = entitySelect(PaymentLinkEntity, 'payment_links_by_id', 'id = $1');
const lockedInScope = entitySelect(
  PaymentLinkEntity,
  'payment_links_lock_in_scope',
  'id = $1 AND merchant_code = $2 AND environment = $3 FOR UPDATE',
);
const locked = entitySelect(PaymentLinkEntity, 'payment_links_lock', 'id = $1 FOR UPDATE');
/** $3: a status or null (any); $4: the last id of the previous page or null. */
const page = entitySelect(
  PaymentLinkEntity,
  'payment_links_page',
  `merchant_code = $1 AND environment = $2 AND ($3::text IS NULL OR status = $3)
   AND ($4::uuid IS NULL OR (created_at, id) < (SELECT c.created_at, c.id FROM payment_links c
                                                  WHERE c.id = $4 AND c.merchant_code = $1 AND c.environment = $2))
   ORDER BY created_at DESC, id DESC LIMIT $5`,
);
/** $3, $4: one merchant's links in one environment, or null for all. */
const DUE = `status = 'active' AND expires_at IS NOT NULL AND expires_at <= $1
   AND ($3::text IS NULL OR (merchant_code = $3 AND environment = $4))
   ORDER BY expires_at, id LIMIT $2`;
const dueSkippingLocked = entitySelect(PaymentLinkEntity, 'payment_links_due', `${DUE} FOR UPDATE SKIP LOCKED`);
const dueWaiting = entitySelect(PaymentLinkEntity, 'payment_links_due_waiting', `${DUE} FOR UPDATE`);

/** Payment link SQL: scoping by merchant and environment, and the row locks of payers and sweeps. */
@Injectable()
export class PaymentLinkRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Sent at once, checked with the commit of the caller's transaction. */
  insert(manager: EntityManager, link: PaymentLinkEntity): Promise<void> {
    return insertLink(manager, link);
  }

  /** Every column but those written once (`update: false`), by id. */
  update(manager: EntityManager, link: PaymentLinkEntity): Promise<void> {
    return updateLinks(manager, [link]);
  }

  /** The link of this merchant and environment; 404 otherwise (another merchant's link is unknown here). */
  async get(scope: Scope, id: string): Promise<PaymentLinkEntity> {
    const [link] = isUuid(id) ? await inScope(this.db, [id, scope.merchantCode, scope.environment]) : [];
    if (!link) throw linkNotFound();
    return link;
  }

  /** By id alone, for the keyless checkout paths where the id is the credential. */
  async getKeyless(id: string): Promise<PaymentLinkEntity> {
    const [link] = isUuid(id) ? await byId(this.db, [id]) : [];
    if (!link) throw linkNotFound();
    return link;
  }

  /** The link, row-locked until the transaction ends; 404 unless it is in `scope` (when given). */
  async lock(manager: EntityManager, id: string, scope?: Scope): Promise<PaymentLinkEntity> {
    if (!isUuid(id)) throw linkNotFound();
    const [link] = scope
      ? await lockedInScope(manager, [id, scope.merchantCode, scope.environment])
      : await locked(manager, [id]);
    if (!link) throw linkNotFound();
    return link;
  }

  /** Newest first, like every list; `startingAfter` is the last id of the previous page. */
  list(scope: Scope, o: { limit: number; startingAfter?: string; status?: LinkStatus }): Promise<PaymentLinkEntity[]> {
    if (o.startingAfter !== undefined && !isUuid(o.startingAfter)) throw linkNotFound('startingAfter');
    return page(this.db, [scope.merchantCode, scope.environment, o.status ?? null, o.startingAfter ?? null, o.limit]);
  }

  /**
   * Active links whose expiry passed by `upTo`, earliest first, row-locked. Sweeper replicas skip rows another
   * one holds (FOR UPDATE SKIP LOCKED); a clock advance waits for them.
   */
  claimDue(manager: EntityManager, upTo: Date, limit: number, o: ClaimOptions = {}): Promise<PaymentLinkEntity[]> {
    const values = [upTo, limit, o.scope?.merchantCode ?? null, o.scope?.environment ?? null];
    return (o.waitForLocks ? dueWaiting : dueSkippingLocked)(manager, values);
  }
}
