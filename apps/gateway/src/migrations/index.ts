import {
  CreateOutbox1763700000000,
  OutboxClaimIndex1766400000000,
  OutboxJsonEnvelope1765000000000,
  OutboxTraceParent1768100000000,
} from '@app/outbox';
import { CreateIdempotencyKeys1763700000001, IdempotencyKeyLeases1768300000000 } from '@app/idempotency';
import { WebhookSecretCipher } from '@app/cipher';
import { MerchantsAndKeys1763700000001 } from './1763700000001-merchants-and-keys';
import { Webhooks1763700000030 } from './1763700000030-webhooks';
import { SandboxClocks1765100000000 } from './1765100000000-sandbox-clocks';
import { MerchantIds1766000000000 } from './1766000000000-merchant-ids';
import { WebhookRecovery1767000000000 } from './1767000000000-webhook-recovery';
import { MerchantAllowedOrigins1768000000000 } from './1768000000000-merchant-allowed-origins';
import { WebhookDeliveryTraceParent1768100000001 } from './1768100000001-webhook-delivery-trace-parent';
import { WebhookEndpointUniqueUrl1768300000034 } from './1768300000034-webhook-endpoint-unique-url';
import { CheckoutAttempts1768300000035 } from './1768300000035-checkout-attempts';
import { DashboardUsers1768400000003 } from './1768400000003-dashboard-users';
import { DashboardTotpChanges1769000100001 } from './1769000100001-dashboard-totp-changes';
import { MailSends1769000700001 } from './1769000700001-mail-sends';
import { TeamAndAuditLog1769000700002 } from './1769000700002-team-and-audit-log';
import { CardUpdateLinks1769001010001 } from './1769001010001-card-update-links';
import { CardUpdateEmails1769001010002 } from './1769001010002-card-update-emails';
import { encryptWebhookSecrets } from './1766000000000-encrypt-webhook-secrets';
import { DropWebhookTables1768400000001 } from './1768400000001-drop-webhook-tables';

/** Every migration of the gateway database, in order; the secrets' encryption needs the deployment's keys. */
export const gatewayMigrations = (cipher: WebhookSecretCipher) => [
  CreateOutbox1763700000000,
  MerchantsAndKeys1763700000001,
  // The idempotency library's table: its own migrations, each at its place in time order (a database deployed
  // before them runs them on its next start).
  CreateIdempotencyKeys1763700000001,
  Webhooks1763700000030,
  OutboxJsonEnvelope1765000000000,
  SandboxClocks1765100000000,
  MerchantIds1766000000000,
  encryptWebhookSecrets(cipher),
  OutboxClaimIndex1766400000000,
  WebhookRecovery1767000000000,
  MerchantAllowedOrigins1768000000000,
  OutboxTraceParent1768100000000,
  WebhookDeliveryTraceParent1768100000001,
  IdempotencyKeyLeases1768300000000,
  WebhookEndpointUniqueUrl1768300000034,
  CheckoutAttempts1768300000035,
  // The webhook tables moved to the webhooks service (apps/migrate copies their rows before this runs).
  DropWebhookTables1768400000001,
  DashboardUsers1768400000003,
  DashboardTotpChanges1769000100001,
  MailSends1769000700001,
  TeamAndAuditLog1769000700002,
  CardUpdateLinks1769001010001,
  CardUpdateEmails1769001010002,
];
