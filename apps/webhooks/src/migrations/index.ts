import { CreateIdempotencyKeys1763700000001, IdempotencyKeyLeases1768300000000 } from '@app/idempotency';
import { Webhooks1768400000001 } from './1768400000001-webhooks';

/** Every migration of the webhooks database, in order. */
export const migrations = [
  CreateIdempotencyKeys1763700000001,
  IdempotencyKeyLeases1768300000000,
  Webhooks1768400000001,
];
