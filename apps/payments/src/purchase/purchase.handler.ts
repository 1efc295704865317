import { Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { Logger } from 'pino';
import {
  CallerContext,
  DECLINED_LAST_MAX,
  PaymentResponse,
  PaymentsSubjects,
  PurchaseManyCommand,
  PurchaseManyItem,
  PurchaseManyResponse,
  PurchaseManyResult,
  PurchaseRequest,
} from '@app/contracts';
import { DomainError, validatedBody } from '@app/errors';
import { answerOfError, Caller, CommandBody, CommandHandler } from '@app/messaging';
import { LOGGER } from '@app/observability';
import { PurchaseUseCase } from './purchase.use-case';

@CommandHandler()
export class PurchaseHandler {
  constructor(
    private readonly purchases: PurchaseUseCase,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @MessagePattern(PaymentsSubjects.purchase)
  purchase(@Caller() ctx: CallerContext, @CommandBody() body: PurchaseRequest): Promise<PaymentResponse> {
    return this.purchases.run(ctx, body, 'purchase');
  }

  @MessagePattern(PaymentsSubjects.authorize)
  authorize(@Caller() ctx: CallerContext, @CommandBody() body: PurchaseRequest): Promise<PaymentResponse> {
    return this.purchases.run(ctx, body, 'authorization');
  }

  /**
   * Several purchases in one message (billing's renewal charges): each item is validated and run exactly as
   * the purchase command runs it, with its own Idempotency-Key, concurrently, so under load their reserves
   * and records share group commits; each answers on its own, a bad or declined item fails alone.
   */
  @MessagePattern(PaymentsSubjects.purchaseMany)
  async purchaseMany(
    @Caller() ctx: CallerContext,
    @CommandBody() command: PurchaseManyCommand,
  ): Promise<PurchaseManyResponse> {
    return { results: await Promise.all(command.items.map((item, i) => this.one(ctx, item, i))) };
  }

  private async one(ctx: CallerContext, item: PurchaseManyItem, i: number): Promise<PurchaseManyResult> {
    try {
      const key: unknown = item?.idempotencyKey;
      if (typeof key !== 'string' || key.length < 1 || key.length > 255) {
        throw DomainError.validation(
          'Each item needs an idempotencyKey of 1-255 characters',
          `items[${i}].idempotencyKey`,
        );
      }
      const offset: unknown = item.clockOffsetMs;
      if (offset !== undefined && (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0)) {
        throw DomainError.validation('clockOffsetMs must be a non-negative integer', `items[${i}].clockOffsetMs`);
      }
      const declinedLast: unknown = item.declinedLast;
      if (
        declinedLast !== undefined &&
        (!Array.isArray(declinedLast) ||
          declinedLast.length > DECLINED_LAST_MAX ||
          !declinedLast.every((c) => typeof c === 'string' && c.length > 0 && c.length <= 64))
      ) {
        throw DomainError.validation('declinedLast must be a list of connection codes', `items[${i}].declinedLast`);
      }
      const body = await validatedBody(PurchaseRequest, item.body);
      const { idempotencyKey: _key, clockOffsetMs: _offset, ...caller } = ctx;
      const itemCtx: CallerContext = { ...caller, idempotencyKey: key, ...(offset ? { clockOffsetMs: offset } : {}) };
      const routing = declinedLast ? { declinedLast: declinedLast as string[] } : {};
      return { response: await this.purchases.run(itemCtx, body, 'purchase', routing) };
    } catch (e) {
      return { err: answerOfError(e, this.logger, ctx.requestId) };
    }
  }
}
