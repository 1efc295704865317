import { EntityManager } from 'typeorm';
import { ActionRequiredView, AmountDto, ApmRequestDto, ApmView, CallerContext, PaymentMethod } from '@app/contracts';

export interface ApmStartRequest {
  ctx: CallerContext;
  paymentId: string;
  method: Exclude<PaymentMethod, 'card'>;
  apm: ApmRequestDto | undefined;
  amount: AmountDto;
  /** The acquirer's handle of the pending payment, for the later settlement. */
  acquirerReference: string;
  now: Date;
}

/**
 * APM behaviour (pix, boleto, ach): checks the method's `apm` details before anything is charged, and opens
 * the pending action (QR code, barcode, redirect) of a payment the acquirer left `pending_action`. `begin`
 * runs inside the purchase transaction, after the payment row is inserted.
 */
export interface ApmPort {
  validate(
    method: Exclude<PaymentMethod, 'card'>,
    apm: ApmRequestDto | undefined,
    amount: AmountDto,
    ctx: CallerContext,
  ): void;
  begin(
    manager: EntityManager,
    request: ApmStartRequest,
  ): Promise<{ actionRequired?: ActionRequiredView; apm?: ApmView }>;
}

export const APM_PORT = Symbol('APM_PORT');
