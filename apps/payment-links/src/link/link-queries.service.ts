import { Injectable } from '@nestjs/common';
import { Clock } from '@app/clock';
import { CallerContext, ListPaymentLinksCommand, PaymentLinkResponse } from '@app/contracts';
import { LinkExpiry } from '../link/link-expiry.service';
import { LinkRecorder } from './link-recorder';
import { PaymentLinkRepository } from './payment-link.repository';

/** A merchant's links read and listed (docs/api.md, Payment links and checkout), each as of now: a due expiry is recorded. */
@Injectable()
export class LinkQueries {
  constructor(
    private readonly links: PaymentLinkRepository,
    private readonly recorder: LinkRecorder,
    private readonly expiry: LinkExpiry,
    private readonly clock: Clock,
  ) {}

  async get(ctx: CallerContext, id: string): Promise<PaymentLinkResponse> {
    const link = await this.links.get(ctx, id);
    return this.recorder.view(await this.expiry.current(link, this.clock.now(ctx)));
  }

  async list(ctx: CallerContext, query: ListPaymentLinksCommand): Promise<PaymentLinkResponse[]> {
    const now = this.clock.now(ctx);
    const page = await this.links.list(ctx, { limit: query.limit ?? 20, ...query });
    const current = await Promise.all(page.map((link) => this.expiry.current(link, now)));
    // A status filter asked about the status as stored; a link that expired on this read no longer matches it.
    return current
      .filter((l) => query.status === undefined || l.status === query.status)
      .map((l) => this.recorder.view(l));
  }
}
