import { commonEnv, ConfigOf, databaseUrl, int, loadConfig } from '@app/config';

export const billingEnv = {
  ...commonEnv,
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
};
export type BillingConfig = ConfigOf<typeof billingEnv>;
export const loadBillingConfig = (env = process.env): BillingConfig => loadConfig(billingEnv, env);
