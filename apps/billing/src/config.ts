import { commonEnv, idempotencyEnv, ConfigOf, databaseUrl, int, loadConfig } from '@app/config';

export const billingEnv = {
  ...commonEnv,
  ...idempotencyEnv,
  BILLING_HTTP_PORT: int(3003, 'Port of the billing service health and metrics endpoints', { min: 0, max: 65535 }),
  BILLING_DATABASE_URL: databaseUrl('billing'),
  PAYMENTS_RPC_TIMEOUT_MS: int(
    9000,
    'How long billing waits for the payments service (keep it below the gateway RPC_TIMEOUT_MS)',
    {
      min: 100,
      max: 120000,
    },
  ),
  RENEWAL_POLL_MS: int(
    60_000,
    'How often due renewals, trial ends and dunning retries are looked for, in ms (0: off)',
    {
      min: 0,
    },
  ),
  ACCOUNT_UPDATER_DAYS_AHEAD: int(
    7,
    'How many days before a renewal a vaulted card that expires before it is checked with the account updater',
    { min: 1, max: 60 },
  ),
  ACCOUNT_UPDATER_POLL_MS: int(
    3_600_000,
    'How often subscriptions whose card needs the account updater are looked for, in ms (0: off)',
    { min: 0 },
  ),
  RENEWAL_LEASE_MS: int(60_000, 'How long a claimed renewal stays leased to its worker (longer than a payments call)', {
    min: 1000,
  }),
  RENEWAL_BATCH: int(500, 'How many due subscriptions one claim takes (opened and recorded in one transaction each)', {
    min: 1,
    max: 10_000,
  }),
  RENEWAL_CONCURRENCY: int(128, 'How many renewal charges one billing process has in flight at once', {
    min: 1,
    max: 1000,
  }),
};
/** The parsed configuration, for the providers that need a value of it. */
export const BILLING_CONFIG = Symbol('BILLING_CONFIG');
export type BillingConfig = ConfigOf<typeof billingEnv>;
export const loadBillingConfig = (env = process.env): BillingConfig => loadConfig(billingEnv, env);
