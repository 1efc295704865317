import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { EventType, PaymentResponse } from '@app/contracts';
import { OutboxWriter } from '@app/outbox';
import { PaymentEntity } from './payment.entity';
import { PaymentRepository } from './payment.repository';
import { toPaymentResponse } from './payment.view';

/**
 * Persists a payment change and its event in the caller's transaction: the event is published only if the
 * change commits (outbox). `data` is the Payment after the change, with its metadata (DECISIONS §6).
 */
@Injectable()
export class PaymentRecorder {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly outbox: OutboxWriter,
  ) {}

  async created(manager: EntityManager, payment: PaymentEntity, event: EventType, now: Date): Promise<PaymentResponse> {
    await this.payments.insert(manager, payment);
    return this.emit(manager, payment, event, now);
  }

  async changed(manager: EntityManager, payment: PaymentEntity, event: EventType, now: Date): Promise<PaymentResponse> {
    await this.payments.update(manager, payment);
    return this.emit(manager, payment, event, now);
  }

  /** The event alone, for a flow that wrote the row itself. */
  async emit(manager: EntityManager, payment: PaymentEntity, event: EventType, now: Date): Promise<PaymentResponse> {
    const view = toPaymentResponse(payment);
    await this.outbox.add(manager, event, payment, view, now);
    return view;
  }
}
