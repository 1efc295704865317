import { Injectable } from '@nestjs/common';
import { ConnectionCredentialsCipher } from '../routing/connection-credentials';
import { ConnectionEntity } from '../routing/connection.entity';
import { ConnectorConnection } from './provider-connector';

/**
 * The connection a connector call goes through, as the connector needs it: its credentials opened from the
 * row (CONNECTION_CREDENTIAL_KEYS) for this call only, and its endpoint (undefined: the connector picks the
 * provider's test endpoint in sandbox, its live one in production). Never log what this returns.
 */
@Injectable()
export class ConnectorConnections {
  constructor(private readonly cipher: ConnectionCredentialsCipher) {}

  async of(connection: ConnectionEntity): Promise<ConnectorConnection> {
    const { credentialsKeyId: keyId, credentialsBlob: blob } = connection;
    return {
      connectionCode: connection.connectionCode,
      merchantCode: connection.merchantCode,
      environment: connection.environment,
      credentials: keyId && blob ? this.cipher.open(connection, { keyId, blob }) : {},
      endpoint: connection.endpoint ?? undefined,
    };
  }
}
