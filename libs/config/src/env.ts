import { addIsoDuration } from '@app/clock';
import { natsEnv } from './nats';
import { assertProductionPassword, assertProductionSecret, isProduction } from './secrets';

/**
 * Environment variables are read here and only here: each app declares a schema of named variables, and
 * `loadConfig` parses all of them at start-up into a typed object or stops with one message naming every
 * variable that is wrong.
 */
export interface EnvVar<T> {
  readonly description: string;
  readonly secret?: boolean;
  parse(raw: string | undefined, name: string, env: NodeJS.ProcessEnv): T;
}

export type EnvSchema = Record<string, EnvVar<unknown>>;
export type ConfigOf<S extends EnvSchema> = { [K in keyof S]: S[K] extends EnvVar<infer T> ? T : never };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
  }
}

function present(raw: string | undefined): raw is string {
  return raw !== undefined && raw.trim() !== '';
}

export function int(def: number, description: string, opts: { min?: number; max?: number } = {}): EnvVar<number> {
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = opts;
  return {
    description,
    parse(raw, name) {
      if (!present(raw)) return def;
      if (!/^-?\d+$/.test(raw.trim())) throw new Error(`${name} must be an integer, got "${raw}"`);
      const n = Number(raw);
      if (n < min || n > max) throw new Error(`${name} must be between ${min} and ${max}, got ${n}`);
      return n;
    },
  };
}

/** A number from 0 to 1 (a share). */
export function ratio(def: number, description: string): EnvVar<number> {
  return {
    description,
    parse(raw, name) {
      if (!present(raw)) return def;
      const v = raw.trim();
      if (!/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(v))
        throw new Error(`${name} must be a number from 0 to 1, got "${raw}"`);
      return Number(v);
    },
  };
}

export function bool(def: boolean, description: string): EnvVar<boolean> {
  return {
    description,
    parse(raw, name) {
      if (!present(raw)) return def;
      const v = raw.trim().toLowerCase();
      if (['true', '1', 'yes'].includes(v)) return true;
      if (['false', '0', 'no'].includes(v)) return false;
      throw new Error(`${name} must be true or false, got "${raw}"`);
    },
  };
}

/**
 * A switch only a development or test deployment may turn on (it lifts a protection): off by default, and
 * on with NODE_ENV=production the start stops with a message naming it.
 */
export function developmentSwitch(description: string): EnvVar<boolean> {
  const flag = bool(false, description);
  return {
    description: `${description} (for development: a start with NODE_ENV=production refuses it)`,
    parse(raw, name, env) {
      const on = flag.parse(raw, name, env);
      if (on && isProduction(env)) {
        throw new Error(`${name} lifts a protection and may not be true when NODE_ENV=production`);
      }
      return on;
    },
  };
}

export function str(
  def: string | undefined,
  description: string,
  opts: { secret?: boolean; pattern?: RegExp; oneOf?: readonly string[] } = {},
): EnvVar<string | undefined> {
  return {
    description,
    secret: opts.secret,
    parse(raw, name, env) {
      if (!present(raw)) return def;
      const v = raw.trim();
      if (opts.oneOf && !opts.oneOf.includes(v)) {
        throw new Error(`${name} must be one of ${opts.oneOf.join(', ')}, got "${v}"`);
      }
      if (opts.pattern && !opts.pattern.test(v)) throw new Error(`${name} has an invalid format`);
      if (opts.secret && isProduction(env)) assertProductionSecret(name, [v]);
      return v;
    },
  };
}

/**
 * Encryption keys as "id:base64-32-bytes" pairs, comma-separated (the format is checked where the keyring is
 * built); in production each key must be a secret of its own, not a public one.
 */
export function keyList(description: string): EnvVar<string | undefined> {
  return {
    description,
    secret: true,
    parse(raw, name, env) {
      if (!present(raw)) return undefined;
      const v = raw.trim();
      if (isProduction(env)) {
        assertProductionSecret(
          name,
          v.split(',').map((entry) => entry.slice(entry.indexOf(':') + 1).trim()),
        );
      }
      return v;
    },
  };
}

/**
 * A secret the deployment must set in production (refused there when missing, public or weak); elsewhere
 * `developmentDefault`, a public value, so a laptop and the tests need no setup.
 */
export function deploymentSecret(developmentDefault: string, description: string): EnvVar<string> {
  return {
    description,
    secret: true,
    parse(raw, name, env) {
      if (!present(raw)) {
        if (isProduction(env)) throw new Error(`${name} is required in production (e.g. openssl rand -base64 32)`);
        return developmentDefault;
      }
      const v = raw.trim();
      if (isProduction(env)) assertProductionSecret(name, [v]);
      return v;
    },
  };
}

export function required(description: string, opts: { secret?: boolean } = {}): EnvVar<string> {
  return {
    description,
    secret: opts.secret,
    parse(raw, name) {
      if (!present(raw)) throw new Error(`${name} is required`);
      return raw.trim();
    },
  };
}

/** A URL; `def` may depend on other variables (PUBLIC_BASE_URL defaults from PORT). */
export function url(
  def: string | ((env: NodeJS.ProcessEnv) => string),
  description: string,
  protocols: readonly string[],
): EnvVar<string> {
  return {
    description,
    parse(raw, name, env) {
      const v = present(raw) ? raw.trim() : typeof def === 'function' ? def(env) : def;
      let parsed: URL;
      try {
        parsed = new URL(v);
      } catch {
        throw new Error(`${name} must be a URL, got "${redactUrl(v)}"`);
      }
      if (!protocols.includes(parsed.protocol)) {
        throw new Error(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
      }
      return v;
    },
  };
}

/** Comma-separated list of positive durations in seconds ("30,300,1800"). */
export function secondsList(def: number[], description: string): EnvVar<number[]> {
  return {
    description,
    parse(raw, name) {
      if (!present(raw)) return def;
      const parts = raw.split(',').map((p) => p.trim());
      if (parts.some((p) => !/^\d+(\.\d+)?$/.test(p) || Number(p) <= 0)) {
        throw new Error(`${name} must be a comma-separated list of positive seconds, got "${raw}"`);
      }
      return parts.map(Number);
    },
  };
}

/** A positive ISO 8601 duration ("P1Y", "P3M", "PT12H"), kept as written (calendar arithmetic applies it). */
export function isoDuration(def: string, description: string): EnvVar<string> {
  return {
    description,
    parse(raw, name) {
      const v = present(raw) ? raw.trim() : def;
      const epoch = new Date(0);
      const moved = addIsoDuration(epoch, v);
      if (!moved || moved.getTime() <= epoch.getTime()) {
        throw new Error(`${name} must be a positive ISO 8601 duration such as P1Y, P3M or PT12H, got "${v}"`);
      }
      return v;
    },
  };
}

function redactUrl(v: string): string {
  return v.replace(/\/\/[^@/]*@/, '//***@');
}

export function loadConfig<S extends EnvSchema>(schema: S, env: NodeJS.ProcessEnv = process.env): ConfigOf<S> {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, spec] of Object.entries(schema)) {
    try {
      out[name] = spec.parse(env[name], name, env);
    } catch (e) {
      problems.push((e as Error).message);
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return out as ConfigOf<S>;
}

/** Shared by every app. */
export const commonEnv = {
  NODE_ENV: str(
    'development',
    'development, test or production (production disables the demo merchant and refuses public or weak secrets)',
    {
      oneOf: ['development', 'test', 'production'],
    },
  ),
  ...natsEnv,
  LOG_LEVEL: str('info', 'pino log level', { oneOf: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] }),
  OUTBOX_POLL_MS: int(250, 'How often the outbox relay looks for unpublished events', { min: 10, max: 60_000 }),
  SHUTDOWN_TIMEOUT_MS: int(
    20_000,
    "How long the app may take to stop on SIGTERM or SIGINT (finishing the requests and commands it holds) before it exits anyway; keep it below Kubernetes' terminationGracePeriodSeconds minus the preStop pause",
    { min: 100, max: 600_000 },
  ),
  EVENTS_STREAM_REPLICAS: int(
    1,
    'Replicas of the JetStream EVENTS stream (3 on a three-node NATS cluster, so the stream survives the loss of a node); applied when the app creates the stream or finds it different',
    { min: 1, max: 5 },
  ),
  EVENTS_STREAM_MAX_BYTES: int(
    -1,
    'Size cap of the EVENTS stream in bytes; the oldest events are dropped beyond it (-1: no cap, only EVENTS_STREAM_MAX_AGE)',
    { min: -1 },
  ),
  EVENTS_STREAM_MAX_AGE: isoDuration(
    'P30D',
    'How long the EVENTS stream keeps an event (ISO 8601 duration); GET /v1/events and a new webhook consumer read no further back',
  ),
  OTEL_EXPORTER_OTLP_ENDPOINT: str(
    undefined,
    'OTLP/HTTP endpoint traces are sent to (e.g. http://otel-collector:4318; /v1/traces is appended); tracing is off when unset',
    { pattern: /^https?:\/\/[^\s]+$/ },
  ),
  OTEL_TRACES_SAMPLER_ARG: ratio(
    1,
    'Share of new traces recorded when tracing is on, from 0 to 1 (a request whose caller sent a sampled traceparent is always recorded)',
  ),
  MIGRATIONS: str(
    'on-start',
    'on-start: the app runs its pending database migrations as it starts; check: it only verifies that none is pending and refuses to start otherwise (the migrate entry point, e.g. the Kubernetes Job, ran them with a role that may change the schema)',
    { oneOf: ['on-start', 'check'] },
  ),
  ALLOW_AUTOVACUUM_OFF: bool(
    false,
    'true: a production start accepts a PostgreSQL server running with autovacuum off (vacuumed and analyzed some other way); otherwise it refuses to start, and elsewhere it only warns',
  ),
};

/** The public development value of IDEMPOTENCY_FINGERPRINT_KEY (a production start refuses it). */
export const DEVELOPMENT_FINGERPRINT_KEY = 'insecure-development-idempotency-fingerprint-key';

/** Every app that keeps Idempotency-Keys (gateway, payments, payment-links, billing). */
export const idempotencyEnv = {
  IDEMPOTENCY_FINGERPRINT_KEY: deploymentSecret(
    DEVELOPMENT_FINGERPRINT_KEY,
    "Secret that keys the fingerprint stored with each Idempotency-Key (an HMAC-SHA256 of the request), so a stored fingerprint reveals nothing of a request's card data; required in production (at least 32 random bytes), the same on every replica of an app; changing it makes a retry of a key younger than 24 hours answer 422",
  ),
};

/** A production start refuses a PostgreSQL server without autovacuum unless ALLOW_AUTOVACUUM_OFF accepts it. */
export function refusesAutovacuumOff(config: { NODE_ENV?: string; ALLOW_AUTOVACUUM_OFF: boolean }): boolean {
  return config.NODE_ENV === 'production' && !config.ALLOW_AUTOVACUUM_OFF;
}

export function databaseUrl(app: string): EnvVar<string> {
  const spec = url(`postgres://postgres@127.0.0.1:5432/${app}`, `PostgreSQL database of the ${app} app`, [
    'postgres:',
    'postgresql:',
  ]);
  return {
    ...spec,
    parse(raw, name, env) {
      const v = spec.parse(raw, name, env);
      if (isProduction(env)) assertProductionPassword(name, new URL(v));
      return v;
    },
  };
}
