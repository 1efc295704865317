import { CreateOutbox1763700000000 } from '@app/outbox';
import { MerchantsAndKeys1763700000001 } from './1763700000001-merchants-and-keys';

/** Every migration of the gateway database, in order. */
export const migrations = [CreateOutbox1763700000000, MerchantsAndKeys1763700000001];
