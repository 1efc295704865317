import { Inject, Injectable } from '@nestjs/common';
import { Cipher, Keyring, Sealed } from '@app/cipher';
import type { Acquirer, ConnectionCredentialsRequest, Environment } from '@app/contracts';
import { DomainError } from '@app/errors';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';
import type { ConnectionCredentials } from '../connector/provider-connector';
import type { CredentialHints } from './connection.entity';

/** The id of the public development key used outside production when CONNECTION_CREDENTIAL_KEYS is unset. */
export const DEVELOPMENT_CONNECTION_KEY_ID = 'insecure-development-key';
const DEVELOPMENT_CONNECTION_KEY = Buffer.from('insecure-development-conn-key!!!', 'utf8');

/** The keys of CONNECTION_CREDENTIAL_KEYS: the first seals, every one opens (rotation). */
export const connectionKeyring = (config: { CONNECTION_CREDENTIAL_KEYS?: string; NODE_ENV?: string }): Keyring =>
  Keyring.fromSetting({
    variable: 'CONNECTION_CREDENTIAL_KEYS',
    raw: config.CONNECTION_CREDENTIAL_KEYS,
    production: config.NODE_ENV === 'production',
    developmentKey: { id: DEVELOPMENT_CONNECTION_KEY_ID, material: DEVELOPMENT_CONNECTION_KEY },
  });

/** Which credentials each acquirer needs; the simulator takes none. */
export const REQUIRED_CREDENTIALS: Record<Acquirer, readonly (keyof ConnectionCredentials)[]> = {
  sandbox: [],
  adyen: ['apiKey', 'merchantAccount', 'hmacKey'],
  stripe: ['apiKey', 'webhookSecret'],
};

const FIELDS = ['apiKey', 'merchantAccount', 'hmacKey', 'webhookSecret'] as const;

/** The row a sealed blob belongs to: a blob copied to another merchant, environment or code does not open. */
export interface CredentialsOwner {
  merchantCode: string;
  environment: Environment;
  connectionCode: string;
}

const contextOf = (o: CredentialsOwner): string =>
  `connection-credentials:${o.environment}:${o.merchantCode}:${o.connectionCode}`;

/**
 * The credentials an admin request gives, checked against what the acquirer needs: 400 naming the first one
 * missing; credentials for the simulator are refused (it has nothing to authenticate).
 */
export function checkCredentials(acquirer: Acquirer, given: ConnectionCredentialsRequest): ConnectionCredentials {
  const required = REQUIRED_CREDENTIALS[acquirer];
  if (!required.length) {
    throw DomainError.validation(`The ${acquirer} acquirer takes no credentials`, 'credentials');
  }
  for (const field of required) {
    if (!given[field])
      throw DomainError.validation(`credentials.${field} is required for ${acquirer}`, `credentials.${field}`);
  }
  const out: ConnectionCredentials = {};
  for (const field of FIELDS) if (given[field]) out[field] = given[field];
  return out;
}

/** The last four characters of each credential: enough to tell which key is set, never enough to use it. */
export function hintsOf(c: ConnectionCredentials): CredentialHints {
  const hints: CredentialHints = {};
  for (const field of FIELDS) {
    const value = c[field];
    if (value) hints[`${field}Last4`] = value.slice(-4);
  }
  return hints;
}

/**
 * Connection credentials at rest: AES-256-GCM under CONNECTION_CREDENTIAL_KEYS, the key id stored beside the
 * blob, bound to the connection's merchant, environment and code. They are opened only for a provider call.
 */
@Injectable()
export class ConnectionCredentialsCipher {
  private readonly keyring: Keyring;
  private readonly cipher: Cipher;

  constructor(@Inject(PAYMENTS_CONFIG) config: PaymentsConfig) {
    this.keyring = connectionKeyring(config);
    this.cipher = new Cipher(this.keyring);
  }

  seal(owner: CredentialsOwner, credentials: ConnectionCredentials): Sealed {
    return this.cipher.sealJson(credentials, contextOf(owner));
  }

  open(owner: CredentialsOwner, sealed: Sealed): ConnectionCredentials {
    return this.cipher.openJson<ConnectionCredentials>(sealed, contextOf(owner));
  }

  /** Sealed under an older key: the re-encryption sweep re-seals it under the current one. */
  isStale(sealed: Sealed): boolean {
    return this.cipher.isStale(sealed);
  }

  get currentKeyId(): string {
    return this.keyring.current.id;
  }
}
