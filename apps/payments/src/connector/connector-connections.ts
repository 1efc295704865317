import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Environment } from '@app/contracts';
import { ConnectionEntity } from '../routing/connection.entity';
import { ConnectorRegistry } from './connector.registry';
import { ConnectorConnection, ProviderConnector } from './provider-connector';

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
 * The routing connection as a connector call needs it (ConnectorConnection): its credentials, decrypted for
 * the call only, and its endpoint. Every call to a connector gets its connection here.
 */
@Injectable()
export class ConnectorConnections {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly registry: ConnectorRegistry,
  ) {}

  of(connection: ConnectionEntity): Promise<ConnectorConnection> {
    return Promise.resolve({
      connectionCode: connection.connectionCode,
      merchantCode: connection.merchantCode,
      environment: connection.environment,
      credentials: {},
      endpoint: undefined,
    });
  }

  /** The connector of a payment's (or an attempt's) acquirer, and its connection, for a call. */
  async through(c: ConnectionOf & { acquirer: string }): Promise<Through> {
    return { connector: this.registry.get(c.acquirer), connection: await this.byCode(c) };
  }

  /** The connection a payment (or an attempt on it) went through, by its code. */
  async byCode(c: ConnectionOf): Promise<ConnectorConnection> {
    const row = await this.db.getRepository(ConnectionEntity).findOneBy({
      merchantCode: c.merchantCode,
      environment: c.environment,
      connectionCode: c.connectionCode,
    });
    if (!row) throw new ConnectionGone(c);
    return this.of(row);
  }
}
