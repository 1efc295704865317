import { commonEnv, idempotencyEnv, ConfigOf, databaseUrl, int, keyList, loadConfig, str, url } from '@app/config';

export const paymentsEnv = {
  ...commonEnv,
  ...idempotencyEnv,
  PAYMENTS_HTTP_PORT: int(3001, 'Port of the payments service health and metrics endpoints', { min: 0, max: 65535 }),
  PAYMENTS_DATABASE_URL: databaseUrl('payments'),
  AUTH_HOLD_DAYS: int(7, 'Days an uncaptured authorization is held before it is voided', { min: 1, max: 30 }),
  HOLD_EXPIRY_SWEEP_MS: int(60_000, 'How often expired authorization holds are looked for, in ms (0 turns it off)', {
    min: 0,
  }),
  THREEDS_EXPIRY_SWEEP_MS: int(
    30_000,
    'How often 3DS sessions nobody resumed within their 15 minutes are looked for, in ms (0 turns it off)',
    { min: 0 },
  ),
  NONCE_SWEEP_MS: int(
    60_000,
    'How often SDK card nonces past their 15-minute life (in real time) are deleted, in ms: a sealed card lives at most that life plus this',
    { min: 10, max: 3_600_000 },
  ),
  ACQUIRER_TIMEOUT_MS: int(
    8_000,
    "How long an authorization, capture, refund or cancel waits for the acquirer before answering 504 (keep it below the gateway's RPC_TIMEOUT_MS)",
    { min: 1 },
  ),
  SANDBOX_ACQUIRER_LATENCY_MS: int(
    0,
    "How long the sandbox acquirer takes to answer every call, in ms: to see the service under a real acquirer's timing",
    { min: 0, max: 60_000 },
  ),
  RECOVERY_SWEEP_MS: int(
    5_000,
    'How often acquirer calls whose request died before recording (older than ACQUIRER_TIMEOUT_MS) are resolved, in ms (0 turns it off)',
    { min: 0 },
  ),
  VAULT_KEYS: keyList(
    'Vault encryption keys as "id:base64-32-bytes" pairs, comma-separated; the first one encrypts (a fixed development key is used when unset outside production)',
  ),
  CONNECTION_CREDENTIAL_KEYS: keyList(
    'Keys the connections\' provider credentials are encrypted under, as "id:base64-32-bytes" pairs, comma-separated; the first one encrypts, every one decrypts, and rows under an older key are re-encrypted under the first within CONNECTION_REKEY_SWEEP_MS (a fixed development key is used when unset outside production)',
  ),
  CONNECTION_REKEY_SWEEP_MS: int(
    60_000,
    'How often connections whose credentials are sealed under an older CONNECTION_CREDENTIAL_KEYS key are re-encrypted under the first one, in ms (0 turns it off)',
    { min: 0 },
  ),
  HTTPS_PROXY: str(
    undefined,
    'Proxy the connectors reach the providers through (http://proxy:3128); unset: direct. NO_PROXY lists hosts reached directly',
  ),
  NO_PROXY: str(undefined, 'Hosts the connectors reach without HTTPS_PROXY, comma-separated (e.g. .svc,127.0.0.1)'),
  CONNECTOR_EXTRA_CA_FILE: str(
    undefined,
    "A PEM file of certificate authorities the connectors trust besides the system's (a provider double's in tests; a TLS-inspecting egress proxy's); unset: the system's only",
  ),
  PUBLIC_BASE_URL: url(
    'http://localhost:3000',
    "The gateway's public base URL: 3DS challenge and APM pages in actionRequired.url point there",
    ['http:', 'https:'],
  ),
};
export type PaymentsConfig = ConfigOf<typeof paymentsEnv>;
/** Injection token of the payments service's parsed config. */
export const PAYMENTS_CONFIG = Symbol('PAYMENTS_CONFIG');
export const loadPaymentsConfig = (env = process.env): PaymentsConfig => loadConfig(paymentsEnv, env);
