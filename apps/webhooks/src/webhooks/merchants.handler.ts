import { MessagePattern } from '@nestjs/microservices';
import { CallerContext, WebhooksSubjects } from '@app/contracts';
import { Caller, CommandHandler } from '@app/messaging';
import { RegisterMerchantUseCase } from './register-merchant.use-case';

/** The merchants whose events this service delivers: the gateway names each one it creates (idempotent). */
@CommandHandler()
export class MerchantsHandler {
  constructor(private readonly registerUseCase: RegisterMerchantUseCase) {}

  @MessagePattern(WebhooksSubjects.registerMerchant)
  register(@Caller() ctx: CallerContext): Promise<{ merchantCode: string }> {
    return this.registerUseCase.run(ctx);
  }
}
