import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { CallerContext, EventEnvelope, EventType } from '@app/contracts';
import { afterCommit, deferStatement, statement } from '@app/database';
import { OutboxRelay } from './outbox.relay';

const INSERT_EVENT = statement('outbox_insert', 'INSERT INTO outbox (id, type, envelope) VALUES ($1, $2, $3)');
/** The row of a direct publish: born leased to this process's relay (one claim, counted in `attempts`). */
const INSERT_LEASED = statement(
  'outbox_insert_leased',
  `INSERT INTO outbox (id, type, envelope, claimed_until, attempts)
   VALUES ($1, $2, $3, clock_timestamp() + make_interval(secs => $4), 1)`,
);

/**
 * Adds an event to the outbox inside the caller's transaction: it is published only if that transaction
 * commits, and then at least once (see OutboxRelay: directly after a pipelined transaction, else by claim).
 */
@Injectable()
export class OutboxWriter {
  constructor(private readonly relay: OutboxRelay) {}

  async add<T extends object>(
    manager: EntityManager,
    type: EventType,
    scope: Pick<CallerContext, 'merchantCode' | 'environment'>,
    data: T,
    createdAt: Date,
  ): Promise<EventEnvelope<T>> {
    const envelope: EventEnvelope<T> = {
      id: uuidv7(),
      type,
      createdAt: createdAt.toISOString(),
      environment: scope.environment,
      merchantCode: scope.merchantCode,
      data,
    };
    const row = { id: envelope.id, type, envelope: JSON.stringify(envelope) };
    // In a pipelined transaction the row is born leased to this process's relay, which publishes it from memory
    // as soon as the transaction commits (no claim). The lease keeps other relays off it meanwhile, and hands
    // it to them if this process dies first.
    if (this.relay.publishesDirectly() && afterCommit(manager, () => this.relay.publishCommitted(row))) {
      await deferStatement(manager, INSERT_LEASED, [row.id, type, row.envelope, this.relay.leaseSeconds()]);
      return envelope;
    }
    // Sent with the commit inside a pipelined transaction: nothing reads the row back before it.
    await deferStatement(manager, INSERT_EVENT, [row.id, type, row.envelope]);
    // Publishing soon after commit keeps event latency low; the poll loop is the safety net.
    if (manager.queryRunner?.isTransactionActive) this.relay.kickAfterCommit();
    else this.relay.kick();
    return envelope;
  }
}
