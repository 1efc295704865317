import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CallerContext, EventType } from '@app/contracts';
import { OutboxWriter } from '@app/outbox';
import { RecoveryMetrics } from './recovery/recovery-metrics';

/**
 * Billing's domain events (docs/events.md) through the outbox, in the transaction of the change; and the
 * recovery metrics a change counts once it commits (`recovery`).
 */
@Injectable()
export class BillingEvents {
  constructor(
    private readonly outbox: OutboxWriter,
    readonly recovery: RecoveryMetrics,
  ) {}

  async emit(
    manager: EntityManager,
    scope: Pick<CallerContext, 'merchantCode' | 'environment'>,
    types: readonly EventType[],
    data: object,
    now: Date,
  ): Promise<void> {
    for (const type of types) await this.outbox.add(manager, type, scope, data, now);
  }
}
