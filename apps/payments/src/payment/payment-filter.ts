import { PaymentListStatus } from '@app/contracts';

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

/**
 * The values of the list's filter conditions (PaymentRepository.list, `$5` on), in their order: null for a
 * filter not given; a partially refunded payment is a captured one with an amount refunded.
 */
export function filterValues(f: PaymentListFilter): unknown[] {
  const partlyRefunded = f.status === 'partially_refunded';
  return [
    f.orderCode ?? null,
    f.search !== undefined ? likePrefix(f.search) : null,
    f.email ?? null,
    f.last4 ?? null,
    partlyRefunded ? null : (f.status ?? null),
    partlyRefunded,
    f.amountMin ?? null,
    f.amountMax ?? null,
    f.createdFrom !== undefined ? new Date(f.createdFrom) : null,
    f.createdTo !== undefined ? new Date(f.createdTo) : null,
  ];
}
