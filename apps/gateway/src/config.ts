import {
  bool,
  commonEnv,
  ConfigOf,
  databaseUrl,
  int,
  isoDuration,
  keyList,
  loadConfig,
  secondsList,
  str,
  url,
} from '@app/config';

export const gatewayEnv = {
  ...commonEnv,
  PORT: int(3000, 'HTTP port of the gateway', { min: 0, max: 65535 }),
  HOST: str('0.0.0.0', 'Interface the gateway listens on'),
  PUBLIC_BASE_URL: url(
    (env) => `http://localhost:${env.PORT || 3000}`,
    'Base URL the outside world reaches the gateway at (hosted pages, 3DS and checkout links)',
    ['http:', 'https:'],
  ),
  GATEWAY_DATABASE_URL: databaseUrl('gateway'),
  ADMIN_TOKEN: str(
    undefined,
    'Bearer token of the admin API; the admin API is off when unset (in production: at least 32 random bytes)',
    { secret: true },
  ),
  RPC_TIMEOUT_MS: int(10_000, 'How long the gateway waits for a service before answering 504', {
    min: 100,
    max: 120_000,
  }),
  KEY_CACHE_TTL_MS: int(5_000, 'How long a key lookup is cached (revocation is honoured within this)', {
    min: 0,
    max: 5_000,
  }),
  RATE_LIMIT_PER_SECOND: int(1000, 'Requests per second per key; 0 turns rate limiting off', { min: 0 }),
  SDK_TOKEN_SECRET: str(
    undefined,
    'HMAC secret that signs SDK client tokens (random per process when unset; in production: at least 32 random bytes)',
    {
      secret: true,
    },
  ),
  WEBHOOK_SECRET_KEYS: keyList(
    'Keys that encrypt webhook signing secrets at rest, as "id:base64-32-bytes" pairs, comma-separated; the first one encrypts (a fixed development key is used when unset outside production)',
  ),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: bool(false, 'Allow webhook targets on private, loopback or link-local addresses'),
  WEBHOOK_RETRY_SCHEDULE: secondsList(
    [30, 300, 1800, 7200, 21600, 43200, 86400],
    'Seconds between webhook delivery attempts, comma-separated',
  ),
  WEBHOOK_TIMEOUT_MS: int(10_000, 'How long a webhook delivery waits for the receiver before the attempt fails', {
    min: 100,
    max: 60_000,
  }),
  WEBHOOK_DISPATCH_POLL_MS: int(1_000, 'How often the webhook worker looks for deliveries that fell due', {
    min: 10,
    max: 60_000,
  }),
  WEBHOOK_CONSUMER_NAME: str(
    'gateway-webhooks',
    'Durable JetStream consumer the webhook dispatcher reads EVENTS with',
    {
      pattern: /^[A-Za-z0-9_-]{1,64}$/,
    },
  ),
  SANDBOX_MAX_ADVANCE: isoDuration(
    'P1Y',
    'Farthest one sandbox clock advance may move the clock (ISO 8601 duration); farther answers 422 CLOCK_ADVANCE_TOO_FAR',
  ),
  SANDBOX_MAX_ADVANCE_WORK: int(
    5_000,
    'Most pieces of due work (renewals, expiries) each service runs for one sandbox clock advance; with more due, the advance answers 422 CLOCK_ADVANCE_TOO_FAR and the clock stays (what ran stays done, a retry goes on)',
    { min: 1, max: 1_000_000 },
  ),
  DEMO_MERCHANT: bool(true, 'Create a demo merchant and sandbox key on an empty database (never in production)'),
};
export type GatewayConfig = ConfigOf<typeof gatewayEnv>;
export const loadGatewayConfig = (env = process.env): GatewayConfig => loadConfig(gatewayEnv, env);
