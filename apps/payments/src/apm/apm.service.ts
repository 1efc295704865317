import { Inject, Injectable } from '@nestjs/common';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';
import { randomInt, randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { Clock } from '@app/clock';
import {
  ActionRequiredView,
  ActionType,
  AmountDto,
  ApmMethod,
  ApmRequestDto,
  ApmView,
  CallerContext,
} from '@app/contracts';
import { ApmPort, ApmStartRequest } from '../purchase/apm.port';
import { assertApmSimulated } from '../threeds/simulated-sessions';
import { randomToken } from '../vault/random-token';
import { PaymentSessionRepository } from '../threeds/payment-session.repository';
import { apmUrl } from '../threeds/session-links';
import { APM_SESSION_MACHINE } from '../threeds/session-state';
import { ApmData, parseApm } from './apm-request';
import { boletoCodes } from './boleto-code';
import { decimalString, pixPayload } from './pix-code';

export interface ApmInstructions {
  actionRequired: ActionRequiredView;
  apm: ApmView;
}

const ACTION_TYPE: Record<ApmMethod, ActionType> = { pix: 'qr_code', boleto: 'barcode', ach: 'redirect' };
const DAY_MS = 86_400_000;
/** Defaults when the request sets none: a Pix code lives an hour, a boleto is due in 3 days. */
const PIX_DEFAULT_SECONDS = 3600;
const BOLETO_DEFAULT_DAYS = 3;
const ACH_REDIRECT_SECONDS = 3600;
/** Not a real bank code: sandbox boletos must never look payable at a real bank. */
const SANDBOX_BOLETO_BANK = '999';

const isoDate = (d: Date): string => d.toISOString().slice(0, 10);

/**
 * Alternative payment methods (docs/api.md, Payments): the payer acts elsewhere (Pix QR, boleto, bank debit), the
 * payment waits in `pending_action`, and settlement comes later (the sandbox settle route here).
 */
@Injectable()
export class ApmService implements ApmPort {
  constructor(
    private readonly sessions: PaymentSessionRepository,
    private readonly clock: Clock,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
  ) {}

  /**
   * Before anything is charged: the environment (the instructions are simulated), the `apm` object against its
   * method, and the method's currency; see parseApm.
   */
  validate(method: ApmMethod, apm: ApmRequestDto | undefined, amount: AmountDto, ctx: CallerContext): void {
    assertApmSimulated(ctx, method);
    parseApm(method, apm, amount, isoDate(this.clock.now(ctx)));
  }

  /** Payment instructions and the session behind `actionRequired.sessionId`, in the purchase transaction. */
  async begin(manager: EntityManager, r: ApmStartRequest): Promise<ApmInstructions> {
    const data = parseApm(r.method, r.apm, r.amount, isoDate(r.now));
    const id = randomToken('ses_');
    const url = apmUrl(this.config.PUBLIC_BASE_URL, id);
    const { apm, expiresAt } = this.instructions(r, data, url);
    const actionRequired: ActionRequiredView = {
      type: ACTION_TYPE[data.method],
      url,
      sessionId: id,
      expiresAt: expiresAt.toISOString(),
    };
    await this.sessions.insert(manager, {
      id,
      kind: 'apm',
      paymentId: r.paymentId,
      merchantCode: r.ctx.merchantCode,
      environment: r.ctx.environment,
      status: APM_SESSION_MACHINE.spec.initial,
      outcome: null,
      intent: null,
      connectionCode: null,
      acquirerReference: r.acquirerReference,
      cardKeyId: null,
      cardSealed: null,
      display: { amount: { currency: r.amount.currency, value: r.amount.value, exponent: r.amount.exponent } },
      action: actionRequired,
      apm,
      providerAction: null,
      expiresAt,
      completedAt: null,
      consumedAt: null,
      createdAt: r.now,
    });
    return { actionRequired, apm };
  }

  private instructions(r: ApmStartRequest, data: ApmData, url: string): { apm: ApmView; expiresAt: Date } {
    const { now, amount } = r;
    switch (data.method) {
      case 'pix': {
        const expiresAt = new Date(now.getTime() + (data.data.expiresInSeconds ?? PIX_DEFAULT_SECONDS) * 1000);
        const qrCode = pixPayload({
          pixKey: randomUUID(),
          amount: decimalString(amount.value, amount.exponent),
          merchantName: r.ctx.merchantCode,
          txid: r.paymentId.replace(/-/g, '').slice(0, 25),
        });
        return { apm: { qrCode, url, expiresAt: expiresAt.toISOString() }, expiresAt };
      }
      case 'boleto': {
        const dueDate = data.data.dueDate ?? isoDate(new Date(now.getTime() + BOLETO_DEFAULT_DAYS * DAY_MS));
        // Payable through the whole due date.
        const expiresAt = new Date(`${dueDate}T23:59:59.999Z`);
        const freeField = Array.from({ length: 25 }, () => randomInt(10)).join('');
        const { line } = boletoCodes({ bank: SANDBOX_BOLETO_BANK, dueDate, amountCents: amount.value, freeField });
        return { apm: { barcode: line, url, expiresAt: expiresAt.toISOString() }, expiresAt };
      }
      case 'ach': {
        const expiresAt = new Date(now.getTime() + ACH_REDIRECT_SECONDS * 1000);
        return { apm: { url, expiresAt: expiresAt.toISOString() }, expiresAt };
      }
    }
  }
}
