import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { WebhooksSubjects } from '@app/contracts';
import { DomainError } from '@app/errors';
import { RpcClient } from '@app/messaging';
import { Merchant } from './merchant.entity';

@Injectable()
export class MerchantsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly rpc: RpcClient,
  ) {}

  /**
   * The webhooks service learns the merchant first (it delivers only events of merchants it knows: a NATS server
   * may carry another deployment's events), so a merchant the gateway has is always known there; when it does
   * not answer, nothing is created here (503) and a retry completes both.
   */
  async create(merchantCode: string, name: string): Promise<Merchant> {
    await this.nameToWebhooks(merchantCode);
    const id = uuidv7();
    const rows: Merchant[] = await this.db.query(
      `INSERT INTO merchants (id, merchant_code, name) VALUES ($1, $2, $3)
       ON CONFLICT (merchant_code) DO NOTHING
       RETURNING id, merchant_code AS "merchantCode", merchant_id AS "merchantId", name, created_at AS "createdAt"`,
      [id, merchantCode, name],
    );
    if (!rows.length) {
      throw new DomainError('DUPLICATE_MERCHANT_CODE', `Merchant ${merchantCode} already exists`, 'merchantCode');
    }
    return { ...rows[0], merchantId: Number(rows[0].merchantId) };
  }

  /** Names a merchant to the webhooks service (idempotent): its events are delivered from then on. */
  async nameToWebhooks(merchantCode: string): Promise<void> {
    await this.rpc.send(
      WebhooksSubjects.registerMerchant,
      { requestId: '', merchantCode, environment: 'production' },
      {},
    );
  }

  list(): Promise<Merchant[]> {
    return this.db.getRepository(Merchant).find({ order: { createdAt: 'DESC' }, take: 1000 });
  }

  async count(): Promise<number> {
    return this.db.getRepository(Merchant).count();
  }

  /** The web origins allowed to embed the merchant's card fields; 404 for an unknown merchant. */
  async allowedOrigins(merchantCode: string): Promise<string[]> {
    const rows: { origins: string[] }[] = await this.db.query(
      'SELECT allowed_origins AS origins FROM merchants WHERE merchant_code = $1',
      [merchantCode],
    );
    if (!rows.length) throw DomainError.notFound('merchant', 'merchantCode');
    return rows[0].origins;
  }

  /** Replaces the merchant's allowed origins (each already an exact origin, see allowed-origins.ts). */
  async setAllowedOrigins(merchantCode: string, origins: string[]): Promise<string[]> {
    const rows: { origins: string[] }[] = await this.db.query(
      `WITH updated AS (
         UPDATE merchants SET allowed_origins = $2 WHERE merchant_code = $1 RETURNING allowed_origins
       ) SELECT allowed_origins AS origins FROM updated`,
      [merchantCode, [...new Set(origins)]],
    );
    if (!rows.length) throw DomainError.notFound('merchant', 'merchantCode');
    return rows[0].origins;
  }

  /** All the named merchants, or 404 naming the first unknown one. */
  async requireAll(codes: string[]): Promise<Merchant[]> {
    const found = await this.db
      .getRepository(Merchant)
      .createQueryBuilder('m')
      .where('m.merchant_code = ANY(:codes)', { codes })
      .getMany();
    const missing = codes.find((c) => !found.some((m) => m.merchantCode === c));
    if (missing) throw new DomainError('NOT_FOUND', `No such merchant: ${missing}`, 'merchantCodes');
    return found;
  }
}
