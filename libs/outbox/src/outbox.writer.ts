import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { CallerContext, EventEnvelope, EventType } from '@app/contracts';
import { deferStatement, statement } from '@app/database';
import { OutboxRelay } from './outbox.relay';

const INSERT_EVENT = statement('outbox_insert', 'INSERT INTO outbox (id, type, envelope) VALUES ($1, $2, $3)');

/**
 * Adds an event to the outbox inside the caller's transaction: it is published only if that transaction
 * commits, and then at least once.
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
    // Sent with the commit inside a pipelined transaction: nothing reads the row back before it.
    await deferStatement(manager, INSERT_EVENT, [envelope.id, type, JSON.stringify(envelope)]);
    // Publishing soon after commit keeps event latency low; the poll loop is the safety net.
    if (manager.queryRunner?.isTransactionActive) this.relay.kickAfterCommit();
    else this.relay.kick();
    return envelope;
  }
}
