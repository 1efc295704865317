import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { EventType, PaymentLinkResponse } from '@app/contracts';
import { OutboxWriter } from '@app/outbox';
import { PAYMENT_LINKS_CONFIG, PaymentLinksConfig } from '../config';
import { PaymentLinkEntity } from './payment-link.entity';
import { PaymentLinkRepository } from './payment-link.repository';
import { toLinkResponse } from './payment-link.view';

/** Persists a link change and its event in the caller's transaction (outbox): `data` is the link after it. */
@Injectable()
export class LinkRecorder {
  constructor(
    private readonly links: PaymentLinkRepository,
    private readonly outbox: OutboxWriter,
    @Inject(PAYMENT_LINKS_CONFIG) private readonly config: PaymentLinksConfig,
  ) {}

  view(link: PaymentLinkEntity): PaymentLinkResponse {
    return toLinkResponse(link, this.config.PUBLIC_BASE_URL);
  }

  async created(manager: EntityManager, link: PaymentLinkEntity, event: EventType): Promise<PaymentLinkResponse> {
    await this.links.insert(manager, link);
    return this.emit(manager, link, event, link.createdAt);
  }

  async changed(
    manager: EntityManager,
    link: PaymentLinkEntity,
    event: EventType | null,
    now: Date,
  ): Promise<PaymentLinkResponse> {
    if (!event) return this.view(link);
    await this.links.update(manager, link);
    return this.emit(manager, link, event, now);
  }

  private async emit(
    manager: EntityManager,
    link: PaymentLinkEntity,
    event: EventType,
    now: Date,
  ): Promise<PaymentLinkResponse> {
    const view = this.view(link);
    await this.outbox.add(manager, event, link, view, now);
    return view;
  }
}
