import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { runStatement, statement } from '@app/database';
import { ProviderNotification } from '../connector/provider-connector';

const INSERT = statement(
  'provider_webhook_events_insert',
  `INSERT INTO provider_webhook_events (connection_id, event_id, kind, provider_event, acquirer_reference, applied,
     received_at)
   VALUES ($1, $2, $3, $4, $5, 'received', $6) ON CONFLICT (connection_id, event_id) DO NOTHING RETURNING 1 AS one`,
);
const APPLIED = statement(
  'provider_webhook_events_applied',
  'UPDATE provider_webhook_events SET applied = $3, payment_id = $4 WHERE connection_id = $1 AND event_id = $2',
);
const FIND_PAYMENT = statement(
  'payments_by_acquirer_reference',
  `SELECT id FROM payments WHERE acquirer = $1 AND acquirer_reference = $2 AND merchant_code = $3
   AND environment = $4 ORDER BY created_at LIMIT 1`,
);

/**
 * The provider events a connection received, once each (primary key: connection and the provider's event id):
 * a redelivery finds its row and is acknowledged without being applied again.
 */
@Injectable()
export class ProviderWebhookEvents {
  /** True when the event is new; a concurrent delivery of the same event waits for this one's commit. */
  async claim(m: EntityManager, connectionId: string, n: ProviderNotification, now: Date): Promise<boolean> {
    const rows = await runStatement(m, INSERT, [
      connectionId,
      n.eventId,
      n.kind,
      n.providerEvent,
      n.acquirerReference,
      now,
    ]);
    return rows.length === 1;
  }

  async applied(
    m: EntityManager,
    connectionId: string,
    eventId: string,
    applied: string,
    paymentId: string | null,
  ): Promise<void> {
    await runStatement(m, APPLIED, [connectionId, eventId, applied, paymentId]);
  }

  /** The payment (reserved ones included) the provider's reference names, in the connection's merchant and environment. */
  async paymentId(
    m: EntityManager,
    scope: { acquirer: string; merchantCode: string; environment: string },
    acquirerReference: string,
  ): Promise<string | undefined> {
    const rows = await runStatement<{ id: string }>(m, FIND_PAYMENT, [
      scope.acquirer,
      acquirerReference,
      scope.merchantCode,
      scope.environment,
    ]);
    return rows[0]?.id;
  }
}
