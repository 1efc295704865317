import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { Clock, SandboxClockCopy } from '@app/clock';
import { ConnectorWebhookAnswer, ConnectorWebhookCommand } from '@app/contracts';
import { inTransaction } from '@app/database';
import { DomainError } from '@app/errors';
import { LOGGER } from '@app/observability';
import { ConnectorConnections } from '../routing/connector-connections';
import { ConnectorRegistry } from '../connector/connector.registry';
import { ProviderNotification, WebhookRejected } from '../connector/provider-connector';
import { isUuid } from '../payment/payment.repository';
import { NotificationSettlement } from './notification-settlement';
import { ProviderWebhookEvents } from './provider-webhook-events.repository';

const unknownConnection = () => DomainError.notFound('connection', 'connectionId');

/**
 * POST /v1/connectors/{connectionId}/webhooks, forwarded by the gateway: the connection's connector verifies
 * the call with the connection's credentials (a call that does not verify is 401 AUTH_INVALID and changes
 * nothing), each event is stored once per connection and event id (a redelivery is acknowledged and not
 * applied again) and applied in the same transaction (NotificationSettlement); the answer is the connector's
 * acknowledgement (Adyen's `[accepted]`). A failure before the commit answers an error: the provider redelivers.
 */
@Injectable()
export class ProviderWebhooks {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly registry: ConnectorRegistry,
    private readonly connections: ConnectorConnections,
    private readonly events: ProviderWebhookEvents,
    private readonly settlement: NotificationSettlement,
    private readonly clocks: SandboxClockCopy,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async receive(cmd: ConnectorWebhookCommand): Promise<ConnectorWebhookAnswer> {
    if (!isUuid(cmd.connectionId)) throw unknownConnection();
    const row = await this.connections.byId(cmd.connectionId);
    if (!row || !this.registry.has(row.acquirer)) throw unknownConnection();
    const connector = this.registry.get(row.acquirer);
    let notifications: ProviderNotification[];
    try {
      const connection = await this.connections.of(row);
      notifications = connector.parseWebhook(connection, Buffer.from(cmd.rawBody, 'base64'), cmd.headers);
    } catch (e) {
      if (!(e instanceof WebhookRejected)) throw e;
      this.logger.warn(
        { connectionId: row.id, acquirer: row.acquirer, reason: e.message },
        'provider webhook rejected',
      );
      throw new DomainError('AUTH_INVALID', 'The webhook does not verify with this connection’s credentials');
    }
    const now = this.clock.now(await this.clocks.clockScopeOf(row));
    for (const n of notifications) {
      const result = await inTransaction(this.db, async (m) => {
        if (!(await this.events.claim(m, row.id, n, now))) return { applied: 'duplicate', paymentId: null };
        const done = await this.settlement.apply(m, row, n, now);
        await this.events.applied(m, row.id, n.eventId, done.applied, done.paymentId);
        return done;
      });
      this.logger.info(
        { connectionId: row.id, acquirer: row.acquirer, event: n.providerEvent, eventId: n.eventId, ...result },
        'provider webhook event',
      );
    }
    return connector.webhookAcknowledgement;
  }
}
