import { CreateIdempotencyKeys1763700000001, IdempotencyKeyLeases1768300000000 } from '@app/idempotency';
import { Webhooks1768400000001 } from './1768400000001-webhooks';
import { AttemptAnswer1768400000002 } from './1768400000002-attempt-answer';

/** Every migration of the webhooks database, in order. */
export const migrations = [
  CreateIdempotencyKeys1763700000001,
  IdempotencyKeyLeases1768300000000,
  Webhooks1768400000001,
  AttemptAnswer1768400000002,
];
