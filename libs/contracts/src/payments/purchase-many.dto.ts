import { ArrayMaxSize, ArrayMinSize, IsArray } from 'class-validator';
import type { ErrorCode } from '../error-codes';
import type { PaymentResponse } from './payment.dto';
import type { PurchaseRequest } from './purchase.dto';

/** Most charges one `purchaseMany` command carries. */
export const PURCHASE_MANY_MAX = 100;

/** One charge of a `purchaseMany` command: its own Idempotency-Key and sandbox clock offset, and its body. */
export interface PurchaseManyItem {
  idempotencyKey: string;
  clockOffsetMs?: number;
  body: PurchaseRequest;
  /** The connection codes that declined the previous attempt of this charge: routing tries the others first. */
  declinedLast?: string[];
}

/** Most connection codes an item's `declinedLast` names. */
export const DECLINED_LAST_MAX = 10;

/**
 * Internal command (billing's renewals): several card purchases of one merchant and environment in one
 * message. Each item is validated and run as the purchase command would run it alone (its own key, its own
 * answer); only the transport is shared. Items are checked one by one in the handler, so a bad one fails alone.
 */
export class PurchaseManyCommand {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(PURCHASE_MANY_MAX)
  items: PurchaseManyItem[];
}

/** One item's answer: the payment, or the error the purchase command would have answered for it alone. */
export type PurchaseManyResult =
  | { response: PaymentResponse }
  | { err: { code: ErrorCode; message: string; param?: string; details?: Record<string, unknown> } };

/** The answers of a `purchaseMany` command, in the order of its items. */
export interface PurchaseManyResponse {
  results: PurchaseManyResult[];
}
