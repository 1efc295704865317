import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { runStatement, statement } from '@app/database';

const REGISTER = statement(
  'webhook_merchants_register',
  'INSERT INTO webhook_merchants (merchant_code) VALUES ($1) ON CONFLICT DO NOTHING',
);

/** The merchants whose events this service delivers (`webhook_merchants`). */
@Injectable()
export class WebhookMerchantsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Idempotent: a merchant named twice is one row. */
  async register(merchantCode: string): Promise<void> {
    await runStatement(this.db, REGISTER, [merchantCode]);
  }
}
