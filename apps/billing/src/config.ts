import { commonEnv, ConfigOf, databaseUrl, int, loadConfig } from '@app/config';

export const billingEnv = {
  ...commonEnv,
  BILLING_HTTP_PORT: int(3003, 'Port of the billing service health and metrics endpoints', { min: 0, max: 65535 }),
  BILLING_DATABASE_URL: databaseUrl('billing'),
};
export type BillingConfig = ConfigOf<typeof billingEnv>;
export const loadBillingConfig = (env = process.env): BillingConfig => loadConfig(billingEnv, env);
