import { Injectable } from '@nestjs/common';
import {
  BillingSubjects,
  CallerContext,
  LinkPlanAnswer,
  LinkSubscriptionAnswer,
  LinkSubscriptionBody,
} from '@app/contracts';
import { DomainError } from '@app/errors';
import { RpcClient } from '@app/messaging';

/** What payment-links asks of billing over NATS; it never reads billing's tables. */
@Injectable()
export class BillingClient {
  constructor(private readonly rpc: RpcClient) {}

  /** The caller's plan; 404 naming `subscriptionPlanId` when billing does not know it for this merchant. */
  async plan(ctx: CallerContext, id: number): Promise<LinkPlanAnswer> {
    try {
      return await this.rpc.send<LinkPlanAnswer>(BillingSubjects.getPlan, ctx, { id });
    } catch (e) {
      if (e instanceof DomainError && e.code === 'NOT_FOUND') throw DomainError.notFound('plan', 'subscriptionPlanId');
      throw e;
    }
  }

  /** Enrolls a payer (CIT mode, the SDK nonce); 402 PAYMENT_DECLINED comes back as billing threw it. */
  subscribe(ctx: CallerContext, body: LinkSubscriptionBody): Promise<LinkSubscriptionAnswer> {
    return this.rpc.send<LinkSubscriptionAnswer>(BillingSubjects.createSubscription, ctx, body);
  }
}
