import { MessagePattern } from '@nestjs/microservices';
import { CallerContext, WebhooksSubjects } from '@app/contracts';
import { Caller, CommandHandler } from '@app/messaging';
import { WebhookMerchantsRepository } from './webhook-merchants.repository';

/** The merchants whose events this service delivers: the gateway names each one it creates (idempotent). */
@CommandHandler()
export class MerchantsHandler {
  constructor(private readonly merchants: WebhookMerchantsRepository) {}

  @MessagePattern(WebhooksSubjects.registerMerchant)
  async register(@Caller() ctx: CallerContext): Promise<{ merchantCode: string }> {
    await this.merchants.register(ctx.merchantCode);
    return { merchantCode: ctx.merchantCode };
  }
}
