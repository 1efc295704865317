import { CreateSandboxClocks1765100000000 } from '@app/clock';
import {
  CreateOutbox1763700000000,
  OutboxClaimIndex1766400000000,
  OutboxJsonEnvelope1765000000000,
  OutboxTraceParent1768100000000,
} from '@app/outbox';
import { CreateIdempotencyKeys1763700000001, IdempotencyKeyLeases1768300000000 } from '@app/idempotency';
import { CreatePayments1763800000000 } from './1763800000000-payments';
import { CreateStoredCards1764100000000 } from './1764100000000-stored-cards';
import { CreateCardNonces1764100000001 } from './1764100000001-card-nonces';
import { CreatePaymentSessions1764100000002 } from './1764100000002-payment-sessions';
import { OrderCodeKey1765200000000 } from './1765200000000-order-code-key';
import { AcquirerAttempts1766100000000 } from './1766100000000-acquirer-attempts';
import { IdempotencyJsonAnswer1766500000000 } from './1766500000000-idempotency-json-answer';
import { NonceRealExpiry1767200000001 } from './1767200000001-nonce-real-expiry';
import { AcquirerAttemptTraceParent1768100000002 } from './1768100000002-acquirer-attempt-trace-parent';
import { PaymentTraceParent1768200000000 } from './1768200000000-payment-trace-parent';
import { PaymentCodeLookup1768400000036 } from './1768400000036-payment-code-lookup';
import { PaymentCodePerEnvironment1769000200001 } from './1769000200001-payment-code-per-environment';
import { StoredCardAcquirer1769000200002 } from './1769000200002-stored-card-acquirer';
import { ConnectorFlows1769000300001 } from './1769000300001-connector-flows';
import { ConnectionCredentials1769000400001 } from './1769000400001-connection-credentials';
import { PaymentSearch1769000600001 } from './1769000600001-payment-search';
import { PaymentStatsIndex1769000810001 } from './1769000810001-payment-stats-index';

/** Every migration of the payments database, in order. */
export const migrations = [
  CreateOutbox1763700000000,
  CreateIdempotencyKeys1763700000001,
  CreatePayments1763800000000,
  CreateStoredCards1764100000000,
  CreateCardNonces1764100000001,
  CreatePaymentSessions1764100000002,
  OutboxJsonEnvelope1765000000000,
  CreateSandboxClocks1765100000000,
  OrderCodeKey1765200000000,
  AcquirerAttempts1766100000000,
  OutboxClaimIndex1766400000000,
  IdempotencyJsonAnswer1766500000000,
  NonceRealExpiry1767200000001,
  OutboxTraceParent1768100000000,
  AcquirerAttemptTraceParent1768100000002,
  PaymentTraceParent1768200000000,
  IdempotencyKeyLeases1768300000000,
  PaymentCodeLookup1768400000036,
  PaymentCodePerEnvironment1769000200001,
  StoredCardAcquirer1769000200002,
  ConnectorFlows1769000300001,
  ConnectionCredentials1769000400001,
  PaymentSearch1769000600001,
  PaymentStatsIndex1769000810001,
];
