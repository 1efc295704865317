import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { EntityManager } from 'typeorm';
import { Clock } from '@app/clock';
import { CallerContext, CreateNonceRequest, NonceCardData, NonceResponse } from '@app/contracts';
import { DomainError } from '@app/errors';
import { LOGGER } from '@app/observability';
import { VaultCipher } from '../vault/vault-cipher';
import { randomToken } from '../vault/random-token';
import { assertUsableCard } from '../card/card';
import { CardNonce } from './card-nonce.entity';
import { NonceRepository } from './nonce.repository';

export const NONCE_TTL_MS = 15 * 60 * 1000;

type Scope = Pick<CallerContext, 'merchantCode' | 'environment'>;

/** When a nonce ends: on the caller's clock (payments refuse it after) and in real time (the sweeper's). */
export type NonceExpiry = Pick<CardNonce, 'expiresAt' | 'realExpiresAt'>;

const nonceContext = (scope: Scope, nonce: string): string =>
  `card_nonce:${scope.environment}:${scope.merchantCode}:${nonce}`;

/** Single-use card nonces for the browser SDK (docs/api.md, 3DS, client tokens and nonces). */
@Injectable()
export class NonceService {
  constructor(
    private readonly repository: NonceRepository,
    private readonly cipher: VaultCipher,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async create(ctx: CallerContext, body: CreateNonceRequest): Promise<NonceResponse> {
    const now = this.clock.now(ctx);
    assertUsableCard(body.cardData, now, 'cardData', ctx.environment);
    const nonce = randomToken('nonce_');
    const card: NonceCardData = {
      cardNumber: body.cardData.cardNumber,
      cardholderName: body.cardData.cardholderName,
      expiryMonth: body.cardData.expiryMonth,
      expiryYear: body.cardData.expiryYear,
      cvv: body.cardData.cvv,
      cardAddress: body.cardData.cardAddress,
    };
    const expiresAt = new Date(now.getTime() + NONCE_TTL_MS);
    // The sweeper goes by real time: a sandbox clock running ahead must not keep the card any longer.
    const realExpiresAt = new Date(this.clock.now().getTime() + NONCE_TTL_MS);
    await this.store(ctx, nonce, card, { expiresAt, realExpiresAt }, now);
    this.logger.info({ merchantCode: ctx.merchantCode, expiresAt }, 'card nonce created');
    return { nonce, expiresAt: expiresAt.toISOString() };
  }

  /**
   * The card behind a nonce, used up by this call. Unknown, already used, expired, or another merchant's or
   * environment's nonce: 404 NOT_FOUND (a used nonce is gone, like an unknown one).
   */
  async consume(scope: Scope, nonce: string, manager?: EntityManager): Promise<NonceCardData & NonceExpiry> {
    const now = this.clock.now(scope);
    const row = typeof nonce === 'string' && nonce ? await this.repository.take(scope, nonce, manager) : null;
    if (!row || row.expiresAt.getTime() <= now.getTime()) {
      throw DomainError.notFound('nonce (unknown, used or expired)', 'card.nonceData.nonce');
    }
    const card = this.cipher.openJson<NonceCardData>(
      { keyId: row.keyId, blob: row.cardSealed },
      nonceContext(scope, nonce),
    );
    return { ...card, expiresAt: row.expiresAt, realExpiresAt: row.realExpiresAt };
  }

  /**
   * Puts back a nonce whose payment recorded nothing (the acquirer could not be reached), so the same request
   * can be retried: the card sealed again under the same nonce and expiry.
   */
  async restore(
    manager: EntityManager,
    ctx: CallerContext,
    nonce: string,
    card: NonceCardData,
    expiry: NonceExpiry,
  ): Promise<void> {
    await this.store(ctx, nonce, card, expiry, this.clock.now(ctx), manager);
  }

  /** The nonce's row, its card sealed and bound to the merchant, environment and nonce. */
  private async store(
    ctx: CallerContext,
    nonce: string,
    card: NonceCardData,
    { expiresAt, realExpiresAt }: NonceExpiry,
    now: Date,
    manager?: EntityManager,
  ): Promise<void> {
    const sealed = this.cipher.sealJson(card, nonceContext(ctx, nonce));
    await this.repository.insert(
      {
        nonce,
        merchantCode: ctx.merchantCode,
        environment: ctx.environment,
        apiKeyId: ctx.keyId ?? null,
        keyId: sealed.keyId,
        cardSealed: sealed.blob,
        expiresAt,
        realExpiresAt,
        createdAt: now,
      },
      manager,
    );
  }
}
