import { MessagePattern } from '@nestjs/microservices';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CallerContext, WebhooksSubjects } from '@app/contracts';
import { Caller, CommandHandler } from '@app/messaging';

/** The merchants whose events this service delivers: the gateway names each one it creates (idempotent). */
@CommandHandler()
export class MerchantsHandler {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  @MessagePattern(WebhooksSubjects.registerMerchant)
  async register(@Caller() ctx: CallerContext): Promise<{ merchantCode: string }> {
    await this.db.query('INSERT INTO webhook_merchants (merchant_code) VALUES ($1) ON CONFLICT DO NOTHING', [
      ctx.merchantCode,
    ]);
    return { merchantCode: ctx.merchantCode };
  }
}
