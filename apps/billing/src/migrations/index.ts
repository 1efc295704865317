import { CreateOutbox1763700000000, OutboxJsonEnvelope1765000000000 } from '@app/outbox';
import { CreateUsageEvents1766200000000 } from '../usage/usage.migration';

/** Every migration of the billing database, in order. */
export const migrations = [CreateOutbox1763700000000, OutboxJsonEnvelope1765000000000, CreateUsageEvents1766200000000];
