import { createHash } from 'node:crypto';
import { uuidv7 } from '@app/clock';
import { CallerContext } from '@app/contracts';

/**
 * The reference a request carries to the acquirer, for the acquirer to de-duplicate on (a real adapter sends
 * it as the acquirer's idempotency key or merchant reference). A retry of the same merchant request (same
 * Idempotency-Key, same operation and body, same target: the connection or the payment) carries the same
 * reference: when an acquirer acted on the first attempt but its answer was lost (a timeout, a crash before
 * commit), the retry gets that same answer instead of moving the money a second time. A changed body is
 * another request. `requestHash` is the fingerprint IdempotencyService stored for the key: keyed with the
 * deployment's secret, so the reference (stored with the attempt, sent to the acquirer) cannot be traced back
 * to the card data of the body either. Without a key (and so without a fingerprint) every request is new.
 */
export function requestReference(
  ctx: CallerContext,
  operation: string,
  requestHash: string | undefined,
  target: string,
): string {
  if (ctx.idempotencyKey === undefined || requestHash === undefined) return `rq_${uuidv7()}`;
  const digest = createHash('sha256')
    .update([ctx.merchantCode, ctx.environment, operation, target, ctx.idempotencyKey, requestHash].join('\u0000'))
    .digest('base64url');
  return `rq_${digest.slice(0, 32)}`;
}
