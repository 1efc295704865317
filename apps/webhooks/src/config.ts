import {
  commonEnv,
  ConfigOf,
  databaseUrl,
  developmentSwitch,
  idempotencyEnv,
  int,
  keyList,
  loadConfig,
  secondsList,
  str,
} from '@app/config';

export const webhooksEnv = {
  ...commonEnv,
  ...idempotencyEnv,
  WEBHOOKS_HTTP_PORT: int(3004, 'Port of the webhooks service health and metrics endpoints', { min: 0, max: 65535 }),
  WEBHOOKS_DATABASE_URL: databaseUrl('webhooks'),
  WEBHOOK_SECRET_KEYS: keyList(
    'Keys that encrypt webhook signing secrets at rest, as "id:base64-32-bytes" pairs, comma-separated; the first one encrypts (a fixed development key is used when unset outside production)',
  ),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: developmentSwitch(
    'Allow webhook targets on private, loopback or link-local addresses',
  ),
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
  WEBHOOK_MAX_ENDPOINTS: int(
    16,
    'Most webhook endpoints a merchant may have in one environment; one more answers 422 WEBHOOK_ENDPOINT_LIMIT',
    { min: 1, max: 1000 },
  ),
  WEBHOOK_CONSUMER_NAME: str(
    'gateway-webhooks',
    'Durable JetStream consumer the webhooks service reads EVENTS with (the name the gateway used before the service existed, so an upgrade goes on where it stopped)',
    { pattern: /^[A-Za-z0-9_-]{1,64}$/ },
  ),
};
export type WebhooksConfig = ConfigOf<typeof webhooksEnv>;
export const loadWebhooksConfig = (env = process.env): WebhooksConfig => loadConfig(webhooksEnv, env);
