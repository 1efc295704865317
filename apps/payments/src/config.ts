import { commonEnv, ConfigOf, databaseUrl, int, loadConfig, str } from '@app/config';

export const paymentsEnv = {
  ...commonEnv,
  PAYMENTS_HTTP_PORT: int(3001, 'Port of the payments service health and metrics endpoints', { min: 0, max: 65535 }),
  PAYMENTS_DATABASE_URL: databaseUrl('payments'),
  AUTH_HOLD_DAYS: int(7, 'Days an uncaptured authorization is held before it is voided', { min: 1, max: 30 }),
  VAULT_KEYS: str(
    undefined,
    'Vault encryption keys as "id:base64-32-bytes" pairs, comma-separated; the first one encrypts (a fixed development key is used when unset outside production)',
    { secret: true },
  ),
};
export type PaymentsConfig = ConfigOf<typeof paymentsEnv>;
export const loadPaymentsConfig = (env = process.env): PaymentsConfig => loadConfig(paymentsEnv, env);
