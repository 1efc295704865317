import { CreateOutbox1763700000000 } from '@app/outbox';

/** Every migration of the payments database, in order. */
export const migrations = [CreateOutbox1763700000000];
