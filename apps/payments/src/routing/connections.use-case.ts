import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '@app/clock';
import { CallerContext, ConnectionRequest, ConnectionResponse, UpsertConnectionResult } from '@app/contracts';
import { DomainError } from '@app/errors';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';
import { checkCredentials, ConnectionCredentialsCipher, hintsOf, REQUIRED_CREDENTIALS } from './connection-credentials';
import { ConnectionEntity } from './connection.entity';
import { ConnectionHealth } from './connection-health';
import { ConnectionRepository, StoredCredentials } from './connection.repository';
import { connectionRefusal } from './connection-rules';
import { RoutingService } from './routing.service';

/** The admin API's connections of a merchant in one environment (ctx.environment). */
@Injectable()
export class ConnectionsUseCase {
  constructor(
    private readonly connections: ConnectionRepository,
    private readonly routing: RoutingService,
    private readonly cipher: ConnectionCredentialsCipher,
    private readonly health: ConnectionHealth,
    private readonly clock: Clock,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
  ) {}

  async upsert(ctx: CallerContext, body: ConnectionRequest): Promise<UpsertConnectionResult> {
    const refusal = connectionRefusal(body, this.config.NODE_ENV);
    if (refusal) throw refusal;
    // The default exists before the first custom one, so "every merchant gets a default" stays true.
    await this.routing.connectionsOf(ctx);
    const existing = await this.connections.find(ctx, body.connectionCode);
    const credentials = this.credentialsOf(ctx, body, existing);
    const { created, row } = await this.connections.upsert(ctx, body, credentials, this.clock.now(ctx));
    this.routing.forget(ctx);
    return { created, connection: this.view(row) };
  }

  async list(ctx: CallerContext): Promise<ConnectionResponse[]> {
    return (await this.routing.connectionsOf(ctx, { fresh: true })).map((c) => this.view(c));
  }

  /**
   * New credentials sealed; none given on a replacement of the same acquirer: the stored ones stay; the
   * simulator holds none.
   */
  private credentialsOf(
    ctx: CallerContext,
    body: ConnectionRequest,
    existing: ConnectionEntity | null,
  ): StoredCredentials | null | 'keep' {
    const owner = { merchantCode: ctx.merchantCode, environment: ctx.environment, connectionCode: body.connectionCode };
    if (body.credentials) {
      const credentials = checkCredentials(body.acquirer, body.credentials);
      return { ...this.cipher.seal(owner, credentials), hints: hintsOf(credentials) };
    }
    if (body.acquirer === 'sandbox') return null;
    if (existing?.acquirer === body.acquirer && existing.credentialsBlob) return 'keep';
    throw DomainError.validation(
      `credentials are required for ${body.acquirer} (${REQUIRED_CREDENTIALS[body.acquirer].join(', ')})`,
      'credentials',
    );
  }

  private view(c: ConnectionEntity): ConnectionResponse {
    return {
      id: c.id,
      connectionCode: c.connectionCode,
      connectionName: c.connectionName,
      acquirer: c.acquirer,
      environment: c.environment,
      currencies: c.currencies,
      methods: c.methods,
      priority: c.priority,
      isDefault: c.isDefault,
      ...(c.endpoint ? { endpoint: c.endpoint } : {}),
      ...(c.credentialsKeyId && c.credentialHints && c.credentialsUpdatedAt
        ? {
            credentials: {
              ...c.credentialHints,
              keyId: c.credentialsKeyId,
              updatedAt: c.credentialsUpdatedAt.toISOString(),
            },
          }
        : {}),
      health: this.health.view(c.id),
      createdAt: c.createdAt.toISOString(),
      updatedAt: c.updatedAt.toISOString(),
    };
  }
}
