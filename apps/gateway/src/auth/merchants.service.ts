import { Injectable } from '@nestjs/common';
import { uuidv7 } from '@app/clock';
import { WebhooksSubjects } from '@app/contracts';
import { DomainError } from '@app/errors';
import { RpcClient } from '@app/messaging';
import { Merchant } from './merchant.entity';
import { MerchantsRepository } from './merchants.repository';

@Injectable()
export class MerchantsService {
  constructor(
    private readonly merchants: MerchantsRepository,
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
    const merchant = await this.merchants.insert(id, merchantCode, name);
    if (!merchant) {
      throw new DomainError('DUPLICATE_MERCHANT_CODE', `Merchant ${merchantCode} already exists`, 'merchantCode');
    }
    return merchant;
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
    return this.merchants.newest(1000);
  }

  async count(): Promise<number> {
    return this.merchants.count();
  }

  /** The web origins allowed to embed the merchant's card fields; 404 for an unknown merchant. */
  async allowedOrigins(merchantCode: string): Promise<string[]> {
    const origins = await this.merchants.allowedOrigins(merchantCode);
    if (!origins) throw DomainError.notFound('merchant', 'merchantCode');
    return origins;
  }

  /** Replaces the merchant's allowed origins (each already an exact origin, see allowed-origins.ts). */
  async setAllowedOrigins(merchantCode: string, origins: string[]): Promise<string[]> {
    const updated = await this.merchants.setAllowedOrigins(merchantCode, [...new Set(origins)]);
    if (!updated) throw DomainError.notFound('merchant', 'merchantCode');
    return updated;
  }

  /** All the named merchants, or 404 naming the first unknown one. */
  async requireAll(codes: string[]): Promise<Merchant[]> {
    const found = await this.merchants.byCodes(codes);
    const missing = codes.find((c) => !found.some((m) => m.merchantCode === c));
    if (missing) throw new DomainError('NOT_FOUND', `No such merchant: ${missing}`, 'merchantCodes');
    return found;
  }
}
