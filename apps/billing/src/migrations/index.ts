import {
  CreateOutbox1763700000000,
  OutboxClaimIndex1766400000000,
  OutboxJsonEnvelope1765000000000,
  OutboxTraceParent1768100000000,
} from '@app/outbox';
import { CreateIdempotencyKeys1763700000001, IdempotencyKeyLeases1768300000000 } from '@app/idempotency';
import { Billing1766100000000 } from './1766100000000-billing';
import { CreateUsageEvents1766200000000 } from './1766200000000-usage-events';
import { RenewalLease1766300000000 } from './1766300000000-renewal-lease';
import { IdempotencyFingerprint1767300000000 } from './1767300000000-idempotency-fingerprint';
import { RenewalPark1767400000000 } from './1767400000000-renewal-park';
import { UsageOpenTotals1767500000000 } from './1767500000000-usage-open-totals';
import { SubscriptionTraceParent1768100000001 } from './1768100000001-subscription-trace-parent';
import { BillingIdempotencyMoved1768300000001 } from './1768300000001-billing-idempotency-moved';
import { RecoveryPolicy1768400000008 } from './1768400000008-recovery-policy';
import { InvoiceExport1769000610001 } from './1769000610001-invoice-export';
import { InvoiceDunningStart1769000800001 } from './1769000800001-invoice-dunning-start';

/** Every migration of the billing database, in order. */
export const migrations = [
  CreateOutbox1763700000000,
  CreateIdempotencyKeys1763700000001,
  OutboxJsonEnvelope1765000000000,
  Billing1766100000000,
  CreateUsageEvents1766200000000,
  RenewalLease1766300000000,
  OutboxClaimIndex1766400000000,
  IdempotencyFingerprint1767300000000,
  RenewalPark1767400000000,
  UsageOpenTotals1767500000000,
  OutboxTraceParent1768100000000,
  SubscriptionTraceParent1768100000001,
  IdempotencyKeyLeases1768300000000,
  BillingIdempotencyMoved1768300000001,
  RecoveryPolicy1768400000008,
  InvoiceExport1769000610001,
  InvoiceDunningStart1769000800001,
];
