import { Injectable } from '@nestjs/common';
import { Clock, uuidv7 } from '@app/clock';
import { CallerContext, PaymentResponse } from '@app/contracts';
import { DomainError } from '@app/errors';
import { Charge, PaymentsClient } from '../payments/payments.client';
import { attemptKey, ChargeAttempt } from './charge-attempt';
import { RenewalFaults } from './renewal-faults';
import { ChargedAttempt, Recorded } from './renewal-outcome.service';

/**
 * The payments side of renewal attempts: each attempt's charge with its own key and order code (from the
 * invoice and attempt number), as of the step's instant, one at a time or many per call, and the reversal of
 * a charge whose invoice went stale meanwhile. The crash tests' fault point (RenewalFaults) sits after a charge.
 */
@Injectable()
export class RenewalCharges {
  constructor(
    private readonly payments: PaymentsClient,
    private readonly clock: Clock,
    private readonly faults: RenewalFaults,
  ) {}

  /**
   * The payments call of an attempt (none for a zero amount), with the crash tests' fault points after it. A
   * retry after a decline names the connections that declined, which only the many-charges command carries.
   */
  async chargeOnce(a: ChargeAttempt): Promise<PaymentResponse | null> {
    if (a.amount > 0 && a.declinedLast.length) {
      const [settled] = await this.chargeMany([a]);
      if (settled.status === 'rejected') throw settled.reason;
      return settled.value;
    }
    return this.afterCharge(a.amount > 0 ? await this.charge(a) : null);
  }

  /**
   * The charges of one merchant's attempts in one payments call (`mitMany`), each settled on its own: its
   * payment (null for a zero amount, which is not charged), or its error. A failed call fails them all.
   */
  async chargeMany(attempts: ChargeAttempt[]): Promise<Array<PromiseSettledResult<PaymentResponse | null>>> {
    const paid = attempts.filter((a) => a.amount > 0);
    const answers = new Map<ChargeAttempt, PaymentResponse | Error>();
    if (paid.length) {
      try {
        const results = await this.payments.mitMany(
          this.contextOf(paid[0]),
          paid.map((a) => ({
            token: a.token,
            charge: this.chargeOf(a),
            networkTransactionId: a.networkTransactionId,
            declinedLast: a.declinedLast,
            clockOffsetMs: this.contextOf(a).clockOffsetMs,
          })),
        );
        paid.forEach((a, i) => answers.set(a, results[i]));
      } catch (e) {
        // No payments replica serves purchase.many (an older one during a rolling upgrade): one call each.
        const alone = e instanceof DomainError && e.code === 'SERVICE_UNAVAILABLE';
        await Promise.all(
          paid.map(async (a) => answers.set(a, alone ? await this.charge(a).catch((x: Error) => x) : (e as Error))),
        );
      }
    }
    return Promise.allSettled(
      attempts.map(async (a) => {
        const answer = answers.get(a) ?? null;
        if (answer instanceof Error) throw answer;
        return this.afterCharge(answer);
      }),
    );
  }

  /** Between a charge and its record: where the crash tests (RenewalFaults) stop the process. */
  private afterCharge(payment: PaymentResponse | null): PaymentResponse | null {
    if (payment) this.faults.afterCharge();
    return payment;
  }

  /** The invoice was voided (cancel) or paid otherwise while this charge ran: give the money back. */
  async reverseIfStale(c: ChargedAttempt, recorded: Recorded | undefined): Promise<void> {
    if (!recorded || recorded.kind !== 'stale' || !recorded.reverse || !c.payment) return;
    await this.payments.reverse(this.contextOf(c.attempt), c.payment.id, `${attemptKey(c.attempt)}_reverse`);
  }

  private charge(a: ChargeAttempt): Promise<PaymentResponse> {
    return this.payments.mit(this.contextOf(a), a.token, this.chargeOf(a), a.networkTransactionId);
  }

  /** The payments charge of an attempt: its key and order code derive from the invoice and attempt number. */
  private chargeOf(a: ChargeAttempt): Charge {
    return {
      key: attemptKey(a),
      orderCode: `inv_${a.invoiceId}_${a.attempt}`,
      currency: a.currency,
      exponent: a.exponent,
      value: a.amount,
      shopperId: a.subscriptionId,
      email: a.email,
      name: a.name ?? undefined,
      metadata: a.metadata,
    };
  }

  /** Payments' "now" for the call is the step's instant: a sandbox offset that puts the merchant's clock there. */
  private contextOf(a: ChargeAttempt): CallerContext {
    const offset = a.at.getTime() - this.clock.now().getTime();
    return {
      requestId: uuidv7(),
      environment: a.environment,
      merchantCode: a.merchantCode,
      ...(a.merchantId !== null ? { merchantId: a.merchantId } : {}),
      ...(a.environment === 'sandbox' && offset > 0 ? { clockOffsetMs: offset } : {}),
    };
  }
}
