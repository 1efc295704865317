import { randomBytes } from 'node:crypto';
import type { PaymentsConfig } from '../config';
import { ConnectionCredentialsCipher, checkCredentials, hintsOf } from './connection-credentials';
import type { ConnectionEntity } from './connection.entity';
import type { ConnectionRepository } from './connection.repository';
import { ConnectorConnections } from './connector-connections';
import type { ConnectorRegistry } from '../connector/connector.registry';

/** `of` reads nothing: it opens the row it is given (the database and registry serve `byCode` and `through`). */
const connectionsWith = (cipher: ConnectionCredentialsCipher) =>
  new ConnectorConnections(
    undefined as unknown as ConnectionRepository,
    undefined as unknown as ConnectorRegistry,
    cipher,
  );

const key = () => randomBytes(32).toString('base64');
const cipherWith = (keys: string) =>
  new ConnectionCredentialsCipher({ CONNECTION_CREDENTIAL_KEYS: keys, NODE_ENV: 'test' } as PaymentsConfig);

const owner = { merchantCode: 'acme', environment: 'production' as const, connectionCode: 'adyen-eu' };
const credentials = {
  apiKey: 'AQEyhmfxK4_secret_api_key_x9Qa',
  merchantAccount: 'AcmeECOM',
  hmacKey: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
};

const row = (sealed: { keyId: string; blob: Buffer } | null, o: Partial<ConnectionEntity> = {}) =>
  ({
    ...owner,
    id: '0190f1c0-0000-7000-8000-000000000001',
    acquirer: 'adyen',
    endpoint: null,
    credentialsKeyId: sealed?.keyId ?? null,
    credentialsBlob: sealed?.blob ?? null,
    ...o,
  }) as ConnectionEntity;

describe('ConnectorConnections', () => {
  const k1 = `k1:${key()}`;

  it('opens the sealed credentials for the call; the blob holds none of them in clear', async () => {
    const cipher = cipherWith(k1);
    const sealed = cipher.seal(owner, credentials);
    expect(sealed.keyId).toBe('k1');
    for (const value of Object.values(credentials)) expect(sealed.blob.toString('latin1')).not.toContain(value);
    const connection = await connectionsWith(cipher).of(row(sealed));
    expect(connection).toEqual({ ...owner, credentials, endpoint: undefined });
  });

  it('passes the endpoint on; the simulator gets empty credentials', async () => {
    const cipher = cipherWith(k1);
    const of = (r: ConnectionEntity) => connectionsWith(cipher).of(r);
    expect((await of(row(cipher.seal(owner, credentials), { endpoint: 'https://127.0.0.1:4555' }))).endpoint).toBe(
      'https://127.0.0.1:4555',
    );
    expect(await of(row(null, { acquirer: 'sandbox', environment: 'sandbox' }))).toMatchObject({ credentials: {} });
  });

  it('a blob copied to another connection does not open', async () => {
    const cipher = cipherWith(k1);
    const sealed = cipher.seal(owner, credentials);
    await expect(connectionsWith(cipher).of(row(sealed, { connectionCode: 'other' }))).rejects.toThrow(
      /cannot be opened/,
    );
  });

  it('rotation: a new first key seals; rows under the old key still open while it is listed', async () => {
    const old = cipherWith(k1).seal(owner, credentials);
    const rotated = cipherWith(`k2:${key()},${k1}`);
    expect(rotated.currentKeyId).toBe('k2');
    expect(rotated.isStale(old)).toBe(true);
    expect((await connectionsWith(rotated).of(row(old))).credentials).toEqual(credentials);
    const resealed = rotated.seal(owner, rotated.open(owner, old));
    expect(resealed.keyId).toBe('k2');
    expect(rotated.isStale(resealed)).toBe(false);
  });

  it('production refuses to start without CONNECTION_CREDENTIAL_KEYS', () => {
    expect(() => new ConnectionCredentialsCipher({ NODE_ENV: 'production' } as PaymentsConfig)).toThrow(
      /CONNECTION_CREDENTIAL_KEYS is required in production/,
    );
  });
});

describe('checkCredentials and hintsOf', () => {
  it('names the first credential an acquirer needs and lacks', () => {
    expect(() => checkCredentials('adyen', { apiKey: 'k'.repeat(10) })).toThrow(
      'credentials.merchantAccount is required for adyen',
    );
    expect(() => checkCredentials('stripe', { apiKey: 'sk_test_123456' })).toThrow(
      'credentials.webhookSecret is required for stripe',
    );
    expect(() => checkCredentials('sandbox', {})).toThrow('The sandbox acquirer takes no credentials');
    expect(checkCredentials('adyen', credentials)).toEqual(credentials);
  });

  it('keeps the last four characters only', () => {
    expect(hintsOf(credentials)).toEqual({ apiKeyLast4: 'x9Qa', merchantAccountLast4: 'ECOM', hmacKeyLast4: 'A056' });
  });
});
