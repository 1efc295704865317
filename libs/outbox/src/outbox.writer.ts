import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { CallerContext, EventEnvelope, EventType } from '@app/contracts';
import { afterCommit, beforeCommit, transactionState } from '@app/database';
import { traceParentOf } from '@app/observability';
import { OutboxEvent, OutboxRelayLoop } from './outbox-relay.loop';
import { insertLeasedOutboxEvents, insertOutboxEvent } from './outbox.repository';

/**
 * Adds an event to the outbox inside the caller's transaction: it is published only if that transaction
 * commits, and then at least once (see OutboxRelayLoop: directly after a pipelined transaction, else by claim).
 */
@Injectable()
export class OutboxWriter {
  constructor(private readonly relay: OutboxRelayLoop) {}

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
    // it to them if this process dies first. The transaction's events are inserted together, before its COMMIT.
    if (this.relay.publishesDirectly() && this.gathered(manager)?.push(row)) return envelope;
    // Sent with the commit inside a pipelined transaction: nothing reads the row back before it.
    // With tracing on the row keeps the writer's trace context: the claim that publishes it makes the publish
    // a child of that work.
    await insertOutboxEvent(manager, [row.id, type, row.envelope, traceParentOf()]);
    // Publishing soon after commit keeps event latency low; the poll loop is the safety net.
    if (manager.queryRunner?.isTransactionActive) this.relay.kickAfterCommit();
    else this.relay.kick();
    return envelope;
  }

  /** The events this pipelined transaction has written so far (undefined outside one), written before COMMIT. */
  private gathered(manager: EntityManager): OutboxEvent[] | undefined {
    return transactionState(manager, this, () => {
      const rows: OutboxEvent[] = [];
      beforeCommit(manager, () =>
        insertLeasedOutboxEvents(manager, [
          rows.map((r) => r.id),
          rows.map((r) => r.type),
          // One JSON array, not a text[]: the driver would escape every quote of every envelope for an array literal.
          `[${rows.map((r) => r.envelope).join(',')}]`,
          this.relay.leaseSeconds(),
          // The context the direct publish takes too (afterCommit runs in the same one), kept for a claim that
          // takes the rows over.
          traceParentOf(),
        ]),
      );
      afterCommit(manager, () => rows.forEach((r) => this.relay.publishCommitted(r)));
      return rows;
    });
  }
}
