import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@app/clock';
import { CallerContext, CardCheckResult, EventTypes, PaymentMethodEventView } from '@app/contracts';
import { DomainError } from '@app/errors';
import { inTransaction } from '@app/database';
import { OutboxWriter } from '@app/outbox';
import { isSimulated } from '../payment/simulated';
import { sandboxAccountUpdate, UpdaterResult } from './account-updater';
import { VaultCipher } from './vault-cipher';
import { VaultRepository } from './vault.repository';
import { cardExpirationDate, panContext } from './vault.service';

/**
 * Before a renewal, billing asks whether a vaulted card is still good then: a card that expires before `before`
 * goes to the account updater; a new expiry or number is written in place (the token does not change) and
 * `payment_method.updated` is emitted; a closed account or no information emits `payment_method.expiring`,
 * so the merchant can ask the customer. The row is locked, the event goes through the outbox with the change.
 * Only a card stored through a simulator connection meets the sandbox updater's table; any other card gets no
 * information (payment_method.expiring) and is never rewritten.
 */
@Injectable()
export class CardCheckService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly cards: VaultRepository,
    private readonly cipher: VaultCipher,
    private readonly outbox: OutboxWriter,
    private readonly clock: Clock,
  ) {}

  check(ctx: CallerContext, token: string, before: Date): Promise<CardCheckResult> {
    return inTransaction(this.db, async (manager) => {
      const row = token.startsWith('vt_') ? await this.cards.lockByToken(manager, ctx, token) : null;
      if (!row) throw DomainError.notFound('card token', 'token');
      const expires = cardExpirationDate(row.expiryMonth, row.expiryYear);
      if (new Date(expires).getTime() >= before.getTime()) return { token, result: 'current', expirationDate: expires };
      // The sandbox updater's table answers for a simulator's card only: a real provider's card, whatever its
      // number, is left as it is (no real updater is wired in: no information).
      let update: UpdaterResult = { answer: 'no_information' };
      if (isSimulated(row)) {
        const cardNumber = this.cipher.open({ keyId: row.keyId, blob: row.panSealed }, panContext(row));
        update = sandboxAccountUpdate({ cardNumber, expiryMonth: row.expiryMonth, expiryYear: row.expiryYear });
      }
      if (update.answer === 'new_number') {
        const sealed = this.cipher.seal(update.cardNumber, panContext(row));
        Object.assign(row, {
          keyId: sealed.keyId,
          panSealed: sealed.blob,
          bin: update.cardNumber.slice(0, 6),
          last4: update.cardNumber.slice(-4),
        });
      }
      if (update.answer === 'new_number' || update.answer === 'new_expiry') {
        Object.assign(row, { expiryMonth: update.expiryMonth, expiryYear: update.expiryYear });
        await this.cards.updateCard(manager, row);
      }
      const updated = update.answer === 'new_number' || update.answer === 'new_expiry';
      const view: PaymentMethodEventView = {
        token: row.token,
        shopperId: row.shopperId,
        brand: row.brand,
        last4: row.last4,
        expirationDate: cardExpirationDate(row.expiryMonth, row.expiryYear),
        updaterAnswer: update.answer,
      };
      const event = updated ? EventTypes.paymentMethodUpdated : EventTypes.paymentMethodExpiring;
      await this.outbox.add(manager, event, row, view, this.clock.now(ctx));
      return { token, result: update.answer, expirationDate: view.expirationDate };
    });
  }
}
