import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@app/clock';
import { CallerContext, PaymentResponse, SettleCommand, SettleOutcome } from '@app/contracts';
import { inTransaction } from '@app/database';
import { UseCase } from '@app/idempotency';
import { PaymentRecorder } from '../payment/payment-recorder';
import { PaymentRepository } from '../payment/payment.repository';
import { move, PaymentTrigger } from '../payment/payment-state';
import { PaymentSessionRepository } from './payment-session.repository';
import { moveApm } from './session-state';
import { assertSimulatorPayment } from './simulated-sessions';

const TRIGGER: Record<SettleOutcome, PaymentTrigger> = {
  paid: 'approve_purchase',
  failed: 'fail',
  expired: 'abandon',
};

/**
 * Settles a `pending_action` APM payment: `paid` → captured, `failed` → failed, `expired` →
 * cancelled, through the payment's transition table (anything but pending_action is 409 INVALID_STATE), with
 * its event in the outbox in the same transaction.
 */
@UseCase({ operation: 'payment.settle', idempotency: 'none' })
export class SettleUseCase {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly payments: PaymentRepository,
    private readonly recorder: PaymentRecorder,
    private readonly sessions: PaymentSessionRepository,
    private readonly clock: Clock,
  ) {}

  run(ctx: CallerContext, body: SettleCommand): Promise<PaymentResponse> {
    return inTransaction(this.db, async (m) => {
      const payment = await this.payments.lock(m, ctx, body.paymentId);
      assertSimulatorPayment(payment);
      // Only APM payments wait in pending_action; the table refuses every other status.
      const event = move(payment, TRIGGER[body.outcome]);
      const to = payment.status;
      const now = this.clock.now(ctx);
      payment.updatedAt = now;
      payment.actionRequired = null;
      if (to === 'captured') payment.amountCaptured = payment.amountValue;
      if (to === 'cancelled') payment.cancelReason = 'abandoned';
      const session = await this.sessions.findByPayment(payment.id, 'apm', m);
      if (session) {
        moveApm(session, to === 'captured' ? 'capture' : to === 'failed' ? 'fail' : 'cancel');
        session.completedAt = now;
        await this.sessions.save(m, session);
      }
      return this.recorder.changed(m, payment, event, now);
    });
  }
}
