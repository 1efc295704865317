import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { CallerContext, TokenView } from '@app/contracts';
import { DomainError } from '@app/errors';
import { CardVaultPort, TokenizeRequest } from './card-vault.port';
import { VaultCipher } from './vault-cipher';
import { StoredCard } from './stored-card.entity';
import { randomToken } from './random-token';
import { VaultRepository } from './vault.repository';

type Scope = Pick<CallerContext, 'merchantCode' | 'environment'>;

export interface CardToStore {
  cardNumber: string;
  expiryMonth: string;
  expiryYear: string;
  cardholderName?: string | null;
  brand: string;
  type: string;
  shopperId: string;
  networkTransactionId?: string | null;
  networkReferenceId?: string | null;
  /** The acquirer of the payment that stores it (`sandbox`: the simulator). */
  acquirer: string;
}

/** The card fields the vault keeps of a card; never the CVV. */
export interface VaultedCard {
  cardNumber: string;
  expiryMonth: string;
  expiryYear: string;
  cardholderName: string | null;
  brand: string;
  type: string;
  shopperId: string;
}

/** A stored card opened for a charge: the PAN lives only in memory for the acquirer call. */
export interface StoredCardInstrument extends VaultedCard {
  token: string;
  networkTransactionId: string | null;
  networkReferenceId: string | null;
}

/** The ciphertext is bound to its row: copied into another row, merchant or environment it will not open. */
export const panContext = (row: Pick<StoredCard, 'id' | 'merchantCode' | 'environment'>): string =>
  `stored_card:${row.environment}:${row.merchantCode}:${row.id}`;

/** A token's `expirationDate`: the end of the card's expiry month, after which the token is unusable. */
export function cardExpirationDate(expiryMonth: string, expiryYear: string): string {
  // Day 0 of the next month is the last day of this one.
  return new Date(Date.UTC(Number(expiryYear), Number(expiryMonth), 0, 23, 59, 59, 999)).toISOString();
}

/** The card vault: tokens for cards stored sealed (docs/api.md, Payments). */
@Injectable()
export class VaultService implements CardVaultPort {
  constructor(
    private readonly cipher: VaultCipher,
    private readonly repository: VaultRepository,
  ) {}

  /** The purchase flow's CardVaultPort: store an approved card in the purchase transaction. */
  tokenize(manager: EntityManager, r: TokenizeRequest): Promise<TokenView> {
    return this.store(
      r.ctx,
      {
        cardNumber: r.card.cardNumber,
        expiryMonth: r.card.expiryMonth,
        expiryYear: r.card.expiryYear,
        cardholderName: r.card.cardholderName,
        brand: r.card.brand,
        type: r.card.type,
        shopperId: r.shopperId,
        networkTransactionId: r.networkTransactionId,
        networkReferenceId: r.networkReferenceId,
        acquirer: r.acquirer,
      },
      r.now,
      manager,
    );
  }

  async store(scope: Scope, card: CardToStore, now: Date, manager?: EntityManager): Promise<TokenView> {
    const id = uuidv7();
    const row: StoredCard = {
      id,
      token: randomToken('vt_'),
      merchantCode: scope.merchantCode,
      environment: scope.environment,
      shopperId: card.shopperId,
      keyId: '',
      panSealed: Buffer.alloc(0),
      bin: card.cardNumber.slice(0, 6),
      last4: card.cardNumber.slice(-4),
      brand: card.brand,
      cardType: card.type,
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear,
      cardholderName: card.cardholderName ?? null,
      networkTransactionId: card.networkTransactionId ?? null,
      networkReferenceId: card.networkReferenceId ?? null,
      acquirer: card.acquirer,
      createdAt: now,
    };
    const sealed = this.cipher.seal(card.cardNumber, panContext(row));
    row.keyId = sealed.keyId;
    row.panSealed = sealed.blob;
    await this.repository.insert(row, manager);
    return { token: row.token, expirationDate: cardExpirationDate(row.expiryMonth, row.expiryYear) };
  }

  /** The card behind a token of this merchant and environment; any other token is 404 NOT_FOUND. */
  async detokenize(scope: Scope, token: string, manager?: EntityManager): Promise<StoredCardInstrument> {
    const row =
      typeof token === 'string' && token.startsWith('vt_')
        ? await this.repository.findByToken(scope, token, manager)
        : null;
    if (!row) throw DomainError.notFound('card token', 'card.tokenData.token');
    return {
      token: row.token,
      cardNumber: this.cipher.open({ keyId: row.keyId, blob: row.panSealed }, panContext(row)),
      expiryMonth: row.expiryMonth,
      expiryYear: row.expiryYear,
      cardholderName: row.cardholderName,
      brand: row.brand,
      type: row.cardType,
      shopperId: row.shopperId,
      networkTransactionId: row.networkTransactionId,
      networkReferenceId: row.networkReferenceId,
    };
  }
}
