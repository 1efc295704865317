import { SelectQueryBuilder } from 'typeorm';
import { PaymentListStatus } from '@app/contracts';
import { PaymentEntity } from './payment.entity';

/** What a payments list or export narrows to; every filter given must hold. */
export interface PaymentListFilter {
  orderCode?: string;
  /** The start of an orderCode or of a paymentCode. */
  search?: string;
  email?: string;
  last4?: string;
  status?: PaymentListStatus;
  amountMin?: number;
  amountMax?: number;
  createdFrom?: string;
  createdTo?: string;
}

/** `%` and `_` are wildcards in LIKE: a prefix search matches them as themselves. */
export const likePrefix = (text: string): string => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Adds `f`'s conditions to a query over payments aliased `p` (each one has an index, migration 1769000600001). */
export function applyFilter(q: SelectQueryBuilder<PaymentEntity>, f: PaymentListFilter): void {
  if (f.orderCode !== undefined) q.andWhere('p.order_code = :orderCode', { orderCode: f.orderCode });
  if (f.search !== undefined) {
    q.andWhere('(p.order_code LIKE :prefix OR p.payment_code LIKE :prefix)', { prefix: likePrefix(f.search) });
  }
  if (f.email !== undefined) q.andWhere(`lower(p.shopper->>'email') = lower(:email)`, { email: f.email });
  if (f.last4 !== undefined) q.andWhere(`right(p.card->'cardData'->>'cardNumber', 4) = :last4`, { last4: f.last4 });
  if (f.status === 'partially_refunded') {
    q.andWhere(`p.status = 'captured' AND p.amount_refunded > 0`);
  } else if (f.status !== undefined) {
    q.andWhere('p.status = :status', { status: f.status });
  }
  if (f.amountMin !== undefined) q.andWhere('p.amount_value >= :amountMin', { amountMin: f.amountMin });
  if (f.amountMax !== undefined) q.andWhere('p.amount_value <= :amountMax', { amountMax: f.amountMax });
  if (f.createdFrom !== undefined) q.andWhere('p.created_at >= :createdFrom', { createdFrom: new Date(f.createdFrom) });
  if (f.createdTo !== undefined) q.andWhere('p.created_at < :createdTo', { createdTo: new Date(f.createdTo) });
}
