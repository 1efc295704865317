import { Injectable } from '@nestjs/common';
import type { Environment } from '@app/contracts';
import { ConnectionCredentialsCipher } from './connection-credentials';
import { ConnectionEntity } from './connection.entity';
import { ConnectionRepository } from './connection.repository';
import { ConnectorRegistry } from '../connector/connector.registry';
import { ConnectorConnection, ProviderConnector } from '../connector/provider-connector';

/** Whose connection a payment (or an attempt on it) went through. */
export interface ConnectionOf {
  merchantCode: string;
  environment: Environment;
  connectionCode: string;
}

/** The connector of a payment's acquirer and the connection to call it with. */
export interface Through {
  connector: ProviderConnector;
  connection: ConnectorConnection;
}

/** A payment's connection is gone (removed since): nothing can be sent through it. */
export class ConnectionGone extends Error {
  constructor(c: ConnectionOf) {
    super(`Connection ${c.connectionCode} of ${c.merchantCode} (${c.environment}) no longer exists`);
    this.name = 'ConnectionGone';
  }
}

/**
 * The routing connection as a connector call needs it (ConnectorConnection): its credentials opened from the
 * row (CONNECTION_CREDENTIAL_KEYS) for this call only, and its endpoint (undefined: the connector picks the
 * provider's test endpoint in sandbox, its live one in production). Every call to a connector gets its
 * connection here. Never log what this returns.
 */
@Injectable()
export class ConnectorConnections {
  constructor(
    private readonly connections: ConnectionRepository,
    private readonly registry: ConnectorRegistry,
    private readonly cipher: ConnectionCredentialsCipher,
  ) {}

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

  /** The connector of a payment's (or an attempt's) acquirer, and its connection, for a call. */
  async through(c: ConnectionOf & { acquirer: string }): Promise<Through> {
    return { connector: this.registry.get(c.acquirer), connection: await this.byCode(c) };
  }

  /** A connection by its id (a provider's webhook names it), or null. */
  byId(id: string): Promise<ConnectionEntity | null> {
    return this.connections.findById(id);
  }

  /** The connection a payment (or an attempt on it) went through, by its code. */
  async byCode(c: ConnectionOf): Promise<ConnectorConnection> {
    const row = await this.connections.find(c, c.connectionCode);
    if (!row) throw new ConnectionGone(c);
    return this.of(row);
  }
}
