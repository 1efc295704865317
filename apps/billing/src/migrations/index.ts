import { CreateOutbox1763700000000, OutboxJsonEnvelope1765000000000 } from '@app/outbox';

/** Every migration of the billing database, in order. */
export const migrations = [CreateOutbox1763700000000, OutboxJsonEnvelope1765000000000];
