import { DynamicModule, Global, Module } from '@nestjs/common';
import ipaddr from 'ipaddr.js';
import {
  bool,
  commonEnv,
  ConfigOf,
  idempotencyEnv,
  databaseUrl,
  EnvVar,
  int,
  isoDuration,
  keyList,
  loadConfig,
  str,
  url,
} from '@app/config';

/** Comma-separated IP addresses or CIDR ranges ("10.0.0.0/8, 192.168.1.7"); empty by default. */
function addressList(description: string): EnvVar<string[]> {
  return {
    description,
    parse(raw, name) {
      const parts = (raw ?? '')
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean);
      const bad = parts.find((p) => !(ipaddr.isValid(p) || isCidr(p)));
      if (bad !== undefined) throw new Error(`${name} must list IP addresses or CIDR ranges, got "${bad}"`);
      return parts;
    },
  };
}

function isCidr(text: string): boolean {
  try {
    ipaddr.parseCIDR(text);
    return true;
  } catch {
    return false;
  }
}

export const gatewayEnv = {
  ...commonEnv,
  ...idempotencyEnv,
  PORT: int(3000, 'HTTP port of the gateway', { min: 0, max: 65535 }),
  HOST: str('0.0.0.0', 'Interface the gateway listens on'),
  ADMIN_PORT: int(
    3100,
    'Internal HTTP port of the gateway: the admin API, /metrics and the full API description (keep it off the public network)',
    { min: 0, max: 65535 },
  ),
  ADMIN_HOST: str(undefined, 'Interface the internal port listens on (HOST when unset)'),
  SHUTDOWN_DELAY_MS: int(
    0,
    'How long the gateway keeps serving after SIGTERM or SIGINT with readiness already 503, before it closes its listener: let a balancer that polls readiness take it out first (compose sets it; Kubernetes pauses in preStop instead)',
    { min: 0, max: 120_000 },
  ),
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
  RATE_LIMIT_PER_SECOND: int(1000, 'Requests per second per key, per gateway replica; 0 turns rate limiting off', {
    min: 0,
  }),
  AUTH_FAILURES_PER_MINUTE: int(
    60,
    'Failed authentications per client address per minute, per gateway replica, before further attempts answer 429; 0 turns the limit off',
    { min: 0 },
  ),
  KEYLESS_INQUIRY_PER_MINUTE: int(
    30,
    "Inquiries without a key (GET /v1/payment/inquiry/{paymentCode} with X-Environment, how the provider's plugins refund; they answer id, paymentCode, orderCode and status only) per client address per minute, per gateway replica, before further ones answer 429; 0 turns them off (401, as on every merchant route)",
    { min: 0, max: 10_000 },
  ),
  KEYLESS_INQUIRY_PER_CODE_PER_MINUTE: int(
    10,
    'Inquiries without a key for one paymentCode per minute, per gateway replica, from any address, before further ones for that code answer 429',
    { min: 1, max: 10_000 },
  ),
  KEYLESS_INQUIRY_GLOBAL_PER_MINUTE: int(
    600,
    'Inquiries without a key per minute in all, per gateway replica, from any address, before further ones answer 429',
    { min: 1, max: 1_000_000 },
  ),
  KEYLESS_INQUIRY_PRODUCTION: bool(
    true,
    "Whether inquiries without a key answer for production payments (X-Environment: production); false refuses them 401 as on every merchant route while the sandbox's go on (set it false unless production shops use the provider's plugins)",
  ),
  TRUSTED_PROXIES: addressList(
    'Proxies (IP addresses or CIDR ranges, comma-separated) whose X-Forwarded-For names the client address; empty trusts none and the socket address is the client',
  ),
  CHECKOUT_DECLINES_PER_ADDRESS: int(
    8,
    'Checkout payments counted against one client address (declines within the window, attempts in flight, open 3DS challenges) before its further attempts answer 429, across all gateway replicas; 0 turns it off',
    { min: 0 },
  ),
  CHECKOUT_DECLINES_PER_LINK: int(
    20,
    'Checkout payments counted against one payment link (declines within the window, attempts in flight, open 3DS challenges) before its further attempts answer 429, across all gateway replicas; 0 turns it off',
    { min: 0 },
  ),
  CHECKOUT_DECLINE_WINDOW_SECONDS: int(600, 'The window the checkout decline limits count in, in seconds', {
    min: 1,
    max: 86_400,
  }),
  CARD_UPDATE_CONSUMER_NAME: str(
    'gateway-card-update-mail',
    'Durable JetStream consumer the gateway reads subscription.past_due and payment_method.expiring with, to email card-update links',
    { pattern: /^[A-Za-z0-9_-]{1,64}$/ },
  ),
  SDK_TOKEN_SECRET: str(
    undefined,
    'HMAC secret that signs SDK client tokens (random per process when unset; in production: at least 32 random bytes)',
    {
      secret: true,
    },
  ),
  GATEWAY_SECRET_KEYS: keyList(
    'Keys that encrypt the gateway\'s secrets at rest (dashboard TOTP secrets, stored Idempotency-Key answers that show a secret), as "id:base64-32-bytes" pairs, comma-separated; the first one encrypts (a fixed development key is used when unset outside production).',
  ),
  WEBHOOK_SECRET_KEYS: keyList(
    'Webhooks: keys that encrypt webhook signing secrets at rest, as "id:base64-32-bytes" pairs, comma-separated; the first one encrypts (a fixed development key is used when unset outside production). Gateway: the former name of GATEWAY_SECRET_KEYS, read when that is unset (a warning is logged; this release only).',
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
  DASHBOARD_SESSION_IDLE_MINUTES: int(
    30,
    'Minutes without a request after which a dashboard session ends (docs/dashboard.md)',
    { min: 1, max: 1440 },
  ),
  DASHBOARD_SESSION_MAX_HOURS: int(12, 'Hours after sign-in at which a dashboard session ends, however active', {
    min: 1,
    max: 720,
  }),
  DASHBOARD_LOCKOUT_FAILURES: int(
    5,
    'Failed dashboard sign-ins for one email within DASHBOARD_LOCKOUT_MINUTES after which further sign-ins answer 429 ACCOUNT_LOCKED (unknown emails alike)',
    { min: 1, max: 1000 },
  ),
  DASHBOARD_LOCKOUT_MINUTES: int(15, 'The window the dashboard sign-in lockout counts failures in, in minutes', {
    min: 1,
    max: 1440,
  }),
  SMTP_HOST: str(
    undefined,
    'SMTP server that sends invitations, password resets and customer messages (docs/mail.md); mail is off when unset (the gateway logs so at start)',
  ),
  SMTP_PORT: int(587, 'Port of the SMTP server', { min: 1, max: 65535 }),
  SMTP_TLS: oneOf(
    ['starttls', 'tls', 'none'],
    'starttls',
    'starttls: upgrade a plain connection and refuse a server that cannot; tls: TLS from the first byte (port 465); none: plain text (a local sink only)',
  ),
  SMTP_USER: str(undefined, 'User name the gateway signs in to the SMTP server with (no sign-in when unset)'),
  // Secret (never printed) but issued by the mail provider: not held to the 32-random-bytes rule of our own.
  SMTP_PASSWORD: { ...str(undefined, 'Password of SMTP_USER'), secret: true },
  MAIL_FROM: str('Payments <no-reply@localhost>', 'Sender of every email (From), as "Name <address>"'),
  DEMO_MERCHANT: bool(true, 'Create a demo merchant and sandbox key on an empty database (never in production)'),
  DASHBOARD_INSECURE_COOKIE: insecureCookie(),
};
export type GatewayConfig = ConfigOf<typeof gatewayEnv>;

/** The development switch that drops `Secure` from the dashboard's session cookie: refused in production. */
function insecureCookie(): EnvVar<boolean> {
  const flag = bool(
    false,
    'true: the dashboard session cookie is sent without Secure, for local development on plain http:// (npm start sets it); refused in production',
  );
  return {
    description: flag.description,
    parse(raw, name, env) {
      const insecure = flag.parse(raw, name, env);
      if (insecure && env.NODE_ENV?.trim() === 'production') throw new Error(`${name} must not be true in production`);
      return insecure;
    },
  };
}
export const loadGatewayConfig = (env = process.env): GatewayConfig => loadConfig(gatewayEnv, env);

/** The loaded GatewayConfig, for the providers of the gateway's modules (factories inject it). */
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');

/** Gives GATEWAY_CONFIG to every module of the application (the root module imports it once). */
@Global()
@Module({})
export class GatewayConfigModule {
  static of(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayConfigModule,
      providers: [{ provide: GATEWAY_CONFIG, useValue: config }],
      exports: [GATEWAY_CONFIG],
    };
  }
}

/** One of a fixed set of words. */
function oneOf<T extends string>(values: readonly T[], def: T, description: string): EnvVar<T> {
  return {
    description,
    parse(raw, name) {
      const v = (raw ?? '').trim();
      if (v === '') return def;
      const found = values.find((x) => x === v);
      if (!found) throw new Error(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
      return found;
    },
  };
}
