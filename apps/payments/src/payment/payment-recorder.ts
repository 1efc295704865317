import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { EventType, PaymentResponse } from '@app/contracts';
import { OutboxWriter } from '@app/outbox';
import { PaymentEntity } from './payment.entity';
import { PaymentRepository } from './payment.repository';
import { toPaymentResponse } from './payment.view';

/**
 * Persists a payment change and its event in the caller's transaction: the event is published only if the
 * change commits (outbox). `data` is the Payment after the change, with its metadata (docs/events.md).
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

  /**
   * A change after creation (3DS resume, APM settlement, hold expiry, capture, refund, cancel): the merchant
   * did not get it as the answer to its create call, so its event also names the payment's `webhookUrl` and
   * the gateway posts it there (the final status when it changes asynchronously).
   */
  async changed(manager: EntityManager, payment: PaymentEntity, event: EventType, now: Date): Promise<PaymentResponse> {
    await this.payments.update(manager, payment);
    return this.emit(manager, payment, event, now, true);
  }

  /** The event alone, for a flow that wrote the row itself. */
  async emit(
    manager: EntityManager,
    payment: PaymentEntity,
    event: EventType,
    now: Date,
    toWebhookUrl = false,
  ): Promise<PaymentResponse> {
    const view = toPaymentResponse(payment);
    const data = toWebhookUrl && payment.webhookUrl ? { ...view, webhookUrl: payment.webhookUrl } : view;
    await this.outbox.add(manager, event, payment, data, now);
    return view;
  }
}
