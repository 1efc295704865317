import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '@app/clock';
import { CallerContext, CardDataDto, CardRequestDto, CardType, NonceDataDto, TokenDataDto } from '@app/contracts';
import { DomainError } from '@app/errors';
import { assertUsableCard, cardBrand, cardType } from '../card/card';
import { assertNever } from '../connector/assert-never';
import { NonceService } from '../nonce/nonce.service';
import { VaultService } from '../vault/vault.service';
import { ResolvedCard } from '../card/instrument';

const INSTRUMENTS = ['cardData', 'nonceData', 'tokenData'] as const;

/** Turns the request's `card` into the card the acquirer is asked to charge. */
@Injectable()
export class InstrumentResolver {
  constructor(
    private readonly clock: Clock,
    private readonly nonces: NonceService,
    private readonly vault: VaultService,
  ) {}

  /**
   * Exactly one of cardData, nonceData, tokenData (else 400). `manager` is the purchase transaction: a nonce
   * is used up with the payment, and a token is read on the transaction's own connection.
   */
  resolveInstrument(ctx: CallerContext, card: CardRequestDto, manager?: EntityManager): Promise<ResolvedCard> {
    const given = INSTRUMENTS.filter((k) => card[k] !== undefined && card[k] !== null);
    if (given.length !== 1) {
      throw DomainError.validation('card needs exactly one of cardData, nonceData or tokenData', 'card');
    }
    const kind = given[0];
    switch (kind) {
      case 'cardData':
        return Promise.resolve(this.fromCardData(ctx, card.cardData!));
      case 'nonceData':
        return this.fromNonce(ctx, card.nonceData!, manager);
      case 'tokenData':
        return this.fromToken(ctx, card.tokenData!, manager);
      default:
        return assertNever(kind);
    }
  }

  /** An SDK nonce, used up with the payment (404 NOT_FOUND: unknown, used, expired, another merchant's). */
  private async fromNonce(ctx: CallerContext, data: NonceDataDto, manager?: EntityManager): Promise<ResolvedCard> {
    const card = await this.nonces.consume(ctx, data.nonce, manager);
    return {
      source: 'nonceData',
      cardNumber: card.cardNumber,
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear,
      cvv: card.cvv,
      cardholderName: data.cardholderName ?? card.cardholderName ?? null,
      brand: cardBrand(card.cardNumber),
      type: cardType(data.typeOverride),
      // The payment's own address wins over the one collected with the card.
      cardAddress: data.cardAddress ?? card.cardAddress,
      tokenize: data.tokenize === true,
      nonce: {
        value: data.nonce,
        expiry: { expiresAt: card.expiresAt, realExpiresAt: card.realExpiresAt },
        cardAddress: card.cardAddress,
      },
    };
  }

  /** Puts back the nonce a card came from, in the caller's transaction (a payment that recorded nothing). */
  restoreNonce(manager: EntityManager, ctx: CallerContext, card: ResolvedCard): Promise<void> {
    if (!card.nonce) return Promise.resolve();
    const { cardNumber, expiryMonth, expiryYear, cvv } = card;
    const cardholderName = card.cardholderName ?? undefined;
    return this.nonces.restore(
      manager,
      ctx,
      card.nonce.value,
      { cardNumber, expiryMonth, expiryYear, cvv, cardholderName, cardAddress: card.nonce.cardAddress },
      card.nonce.expiry,
    );
  }

  /** A vault token of this merchant and environment (else 404), with the network ids stored with it. */
  private async fromToken(ctx: CallerContext, data: TokenDataDto, manager?: EntityManager): Promise<ResolvedCard> {
    const card = await this.vault.detokenize(ctx, data.token, manager);
    return {
      source: 'tokenData',
      cardNumber: card.cardNumber,
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear,
      cvv: data.cvv,
      cardholderName: card.cardholderName,
      brand: card.brand,
      type: card.type as CardType,
      cardAddress: data.cardAddress,
      tokenize: false,
      token: card.token,
      networkTransactionId: card.networkTransactionId,
      networkReferenceId: card.networkReferenceId,
    };
  }

  private fromCardData(ctx: CallerContext, data: CardDataDto): ResolvedCard {
    assertUsableCard(data, this.clock.now(ctx), 'card.cardData', ctx.environment);
    return {
      source: 'cardData',
      cardNumber: data.cardNumber,
      expiryMonth: data.expiryMonth,
      expiryYear: data.expiryYear,
      cvv: data.cvv,
      cardholderName: data.cardholderName ?? null,
      brand: cardBrand(data.cardNumber),
      type: cardType(data.typeOverride),
      cardAddress: data.cardAddress,
      tokenize: data.tokenize === true,
    };
  }
}
