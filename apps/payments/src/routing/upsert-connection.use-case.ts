import { Inject } from '@nestjs/common';
import { Clock } from '@app/clock';
import { CallerContext, ConnectionRequest, UpsertConnectionResult } from '@app/contracts';
import { DomainError } from '@app/errors';
import { UseCase } from '@app/idempotency';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';
import { checkCredentials, ConnectionCredentialsCipher, hintsOf, REQUIRED_CREDENTIALS } from './connection-credentials';
import { ConnectionEntity } from './connection.entity';
import { ConnectionQueries } from './connection-queries.service';
import { ConnectionRepository, StoredCredentials } from './connection.repository';
import { connectionRefusal } from './connection-rules';
import { RoutingService } from './routing.service';

/** The admin API's PUT of a merchant's connection in one environment (ctx.environment): created or replaced. */
@UseCase({ operation: 'connection.upsert', idempotency: 'none' })
export class UpsertConnectionUseCase {
  constructor(
    private readonly connections: ConnectionRepository,
    private readonly routing: RoutingService,
    private readonly cipher: ConnectionCredentialsCipher,
    private readonly queries: ConnectionQueries,
    private readonly clock: Clock,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
  ) {}

  async run(ctx: CallerContext, body: ConnectionRequest): Promise<UpsertConnectionResult> {
    const refusal = connectionRefusal(body, this.config.NODE_ENV);
    if (refusal) throw refusal;
    // The default exists before the first custom one, so "every merchant gets a default" stays true.
    await this.routing.connectionsOf(ctx);
    const existing = await this.connections.find(ctx, body.connectionCode);
    const credentials = this.credentialsOf(ctx, body, existing);
    const { created, row } = await this.connections.upsert(ctx, body, credentials, this.clock.now(ctx));
    this.routing.forget(ctx);
    return { created, connection: this.queries.view(row) };
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
}
