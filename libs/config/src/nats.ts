import type { EnvVar } from './env';
import { assertProductionSecret, isProduction } from './secrets';

/**
 * How an app reaches NATS. In production every connection is TLS (the app verifies the server's certificate)
 * and authenticated by the app's own nkey, which the server's permissions are written for (k8s/nats/,
 * docs/operations.md#nats-credentials); a start without them is refused. Outside production a plain local
 * server without authentication is accepted and the app says so once when it starts.
 */
const present = (raw: string | undefined): raw is string => raw !== undefined && raw.trim() !== '';

const NATS_PROTOCOLS = ['nats:', 'tls:'];

/** TLS is on when every server is a tls:// URL or a CA file to verify the server with is given. */
export function natsTlsRequired(url: string, caFile: string | undefined): boolean {
  return present(caFile) || url.split(',').every((u) => u.trim().startsWith('tls://'));
}

const natsUrl: EnvVar<string> = {
  description:
    'NATS server(s) with JetStream, comma-separated; tls:// turns TLS on (required in production, with NATS_NKEY_SEED)',
  parse(raw, name, env) {
    const v = present(raw) ? raw.trim() : 'nats://127.0.0.1:4222';
    for (const server of v.split(',')) {
      let parsed: URL;
      try {
        parsed = new URL(server.trim());
      } catch {
        throw new Error(
          `${name} must be a URL (or several, comma-separated), got "${server.replace(/\/\/[^@/]*@/, '//***@')}"`,
        );
      }
      if (!NATS_PROTOCOLS.includes(parsed.protocol)) {
        throw new Error(`${name} must use ${NATS_PROTOCOLS.join(' or ')}, got "${parsed.protocol}"`);
      }
    }
    if (isProduction(env) && !natsTlsRequired(v, env.NATS_CA_FILE)) {
      throw new Error(
        `${name} must use tls:// in production (or NATS_CA_FILE be set): NATS carries card data and must be encrypted`,
      );
    }
    return v;
  },
};

const natsCaFile: EnvVar<string | undefined> = {
  description:
    "PEM file of the CA that signed the NATS server's certificate; set, the app connects with TLS only and verifies the server with it",
  parse: (raw) => (present(raw) ? raw.trim() : undefined),
};

const NKEY_SEED = /^SU[A-Z2-7]{56}$/;

const natsNkeySeed: EnvVar<string | undefined> = {
  description: "The app's own NATS credential: the seed of its user nkey (SU…, `nk -gen user`); required in production",
  secret: true,
  parse(raw, name, env) {
    if (!present(raw)) {
      if (isProduction(env)) {
        throw new Error(`${name} is required in production: each app connects to NATS with its own credential`);
      }
      return undefined;
    }
    const v = raw.trim();
    if (!NKEY_SEED.test(v)) throw new Error(`${name} must be a user nkey seed (58 characters starting with SU)`);
    if (isProduction(env)) assertProductionSecret(name, [v]);
    return v;
  },
};

export const natsEnv = {
  NATS_URL: natsUrl,
  NATS_CA_FILE: natsCaFile,
  NATS_NKEY_SEED: natsNkeySeed,
};

/** What an app's NATS connection needs, from its loaded configuration. */
export interface NatsSettings {
  url: string;
  caFile?: string;
  nkeySeed?: string;
}

export const natsSettingsOf = (c: {
  NATS_URL: string;
  NATS_CA_FILE?: string;
  NATS_NKEY_SEED?: string;
}): NatsSettings => ({ url: c.NATS_URL, caFile: c.NATS_CA_FILE, nkeySeed: c.NATS_NKEY_SEED });
