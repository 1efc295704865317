import { CallerContext } from '@app/contracts';
import { UseCase } from '@app/idempotency';
import { WebhookMerchantsRepository } from './webhook-merchants.repository';

/** The gateway names each merchant it creates, whose events this service then delivers; naming one twice is a no-op. */
@UseCase({ operation: 'webhook_merchant.register', idempotency: 'none' })
export class RegisterMerchantUseCase {
  constructor(private readonly merchants: WebhookMerchantsRepository) {}

  async run(ctx: CallerContext): Promise<{ merchantCode: string }> {
    await this.merchants.register(ctx.merchantCode);
    return { merchantCode: ctx.merchantCode };
  }
}
