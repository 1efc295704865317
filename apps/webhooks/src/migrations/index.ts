import { CreateIdempotencyKeys1763700000001, IdempotencyKeyLeases1768300000000 } from '@app/idempotency';
import { Webhooks1768400000001 } from './1768400000001-webhooks';
import { AttemptAnswer1768400000002 } from './1768400000002-attempt-answer';
import { DeliveryErrorClass1769000200001 } from './1769000200001-delivery-error-class';

/** Every migration of the webhooks database, in order. */
export const migrations = [
  CreateIdempotencyKeys1763700000001,
  IdempotencyKeyLeases1768300000000,
  Webhooks1768400000001,
  AttemptAnswer1768400000002,
  DeliveryErrorClass1769000200001,
];
