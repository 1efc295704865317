import { CreateSandboxClocks1765100000000 } from '@app/clock';
import {
  CreateOutbox1763700000000,
  OutboxClaimIndex1766400000000,
  OutboxJsonEnvelope1765000000000,
  OutboxTraceParent1768100000000,
} from '@app/outbox';
import { CreateIdempotencyKeys1763700000001, IdempotencyKeyLeases1768300000000 } from '@app/idempotency';
import { CreatePaymentLinks1766000000000 } from './1766000000000-payment-links';
import { IdempotencyKeysShared1767300000000 } from './1767300000000-idempotency-keys-shared';
import { LinkUseTraceParent1768100000003 } from './1768100000003-link-use-trace-parent';
import { PaymentLinkTraceParent1768200000001 } from './1768200000001-payment-link-trace-parent';

/** Every migration of the payment-links database, in order. */
export const migrations = [
  CreateOutbox1763700000000,
  CreateIdempotencyKeys1763700000001,
  OutboxJsonEnvelope1765000000000,
  CreateSandboxClocks1765100000000,
  CreatePaymentLinks1766000000000,
  OutboxClaimIndex1766400000000,
  IdempotencyKeysShared1767300000000,
  OutboxTraceParent1768100000000,
  LinkUseTraceParent1768100000003,
  PaymentLinkTraceParent1768200000001,
  IdempotencyKeyLeases1768300000000,
];
