import { MessagePattern } from '@nestjs/microservices';
import {
  CallerContext,
  CardCheckCommand,
  CardCheckResult,
  PaymentsSubjects,
  StoredTokenView,
  TokenLookupCommand,
} from '@app/contracts';
import { DomainError } from '@app/errors';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { CardCheckService } from './card-check.service';
import { cardExpirationDate } from './vault.service';
import { VaultRepository } from './vault.repository';

/**
 * `cmd.payments.token.get`: billing reads the mandate behind a token (record mode) without charging it;
 * `cmd.payments.token.check`: the account updater before a renewal.
 */
@CommandHandler()
export class TokenHandler {
  constructor(
    private readonly repository: VaultRepository,
    private readonly checks: CardCheckService,
  ) {}

  /** `cmd.payments.token.check`: the account updater for a card that expires before `before`. */
  @MessagePattern(PaymentsSubjects.checkToken)
  check(@Caller() ctx: CallerContext, @CommandBody() body: CardCheckCommand): Promise<CardCheckResult> {
    return this.checks.check(ctx, body.token, new Date(body.before));
  }

  @MessagePattern(PaymentsSubjects.getToken)
  async get(@Caller() ctx: CallerContext, @CommandBody() body: TokenLookupCommand): Promise<StoredTokenView> {
    const row = body.token.startsWith('vt_') ? await this.repository.findByToken(ctx, body.token) : null;
    if (!row) throw DomainError.notFound('card token', 'card.tokenData.token');
    return {
      token: row.token,
      brand: row.brand,
      cardNumber: `${row.bin}****${row.last4}`,
      type: row.cardType,
      expirationDate: cardExpirationDate(row.expiryMonth, row.expiryYear),
      shopperId: row.shopperId,
      networkTransactionId: row.networkTransactionId,
      networkReferenceId: row.networkReferenceId,
    };
  }
}
