import { ManualClock } from '@app/clock';
import { ExpirySweepLoop } from '@app/platform';
import { PaymentEntity } from '../../apps/payments/src/payment/payment.entity';
import { TestStack } from '../support/stack';
import { expectError, PaymentsClient, paymentsQuery, sandboxMerchant, usd } from './payments-fixtures';

const DAY = 24 * 3600 * 1000;

/** Hold expiry (AUTH_HOLD_DAYS), driven by a ManualClock in the payments service. */
describe('authorization hold expiry', () => {
  describe('swept on demand', () => {
    const clock = new ManualClock(new Date());
    let stack: TestStack;
    let m: PaymentsClient;
    let sweeper: ExpirySweepLoop<PaymentEntity>;

    beforeAll(async () => {
      [stack, m] = await TestStack.startWith(sandboxMerchant, {
        clock,
        env: { AUTH_HOLD_DAYS: '7', HOLD_EXPIRY_SWEEP_MS: '0' },
      });
      sweeper = stack.services.get('payments')![0].get(ExpirySweepLoop.tokenOf('hold_expiry'));
    });
    afterAll(() => stack.stop());

    it('cancels an authorization older than AUTH_HOLD_DAYS; capturing it is 409 AUTHORIZATION_EXPIRED', async () => {
      const expiring = (await m.authorize({ amount: usd(1000) })).body;
      clock.advance(3 * DAY);
      const younger = (await m.authorize({ amount: usd(1000) })).body;
      const verification = (await m.authorize({ amount: usd(0) })).body;
      clock.advance(4 * DAY - 1);
      expect(await sweeper.runOnce()).toBe(0);
      clock.advance(1);
      expect(await sweeper.runOnce()).toBe(1);
      expect((await m.get(expiring.id)).body.status).toBe('cancelled');
      expect((await m.get(younger.id)).body.status).toBe('authorized');
      expect((await m.get(verification.id)).body.status).toBe('authorized');
      expectError(await m.capture(expiring.id, 100), 409, 'AUTHORIZATION_EXPIRED');
      expect((await m.capture(younger.id, 100)).body.status).toBe('captured');
      const events = await paymentsQuery<{ type: string; envelope: { createdAt: string; data: { status: string } } }>(
        stack,
        "SELECT type, envelope FROM outbox WHERE envelope->'data'->>'id' = $1 ORDER BY created_at",
        [expiring.id],
      );
      expect(events.map((e) => [e.type, e.envelope.data.status])).toEqual([
        ['payment.authorized', 'authorized'],
        ['payment.cancelled', 'cancelled'],
      ]);
      expect(events[1].envelope.createdAt).toBe(clock.now().toISOString());
    });

    it('a capture after the hold ended but before the sweep is already 409 AUTHORIZATION_EXPIRED', async () => {
      const p = (await m.authorize()).body;
      clock.advance(7 * DAY);
      expectError(await m.capture(p.id, 100), 409, 'AUTHORIZATION_EXPIRED');
      expect((await m.get(p.id)).body.status).toBe('authorized');
      await sweeper.runOnce();
      expect((await m.get(p.id)).body.status).toBe('cancelled');
      expectError(await m.operate(p.id, 'cancel'), 409, 'INVALID_STATE');
    });

    it('leaves captured and cancelled payments alone, and other merchants’ in their own sweep scope', async () => {
      const paid = (await m.purchase()).body;
      const other = await sandboxMerchant(stack);
      const theirs = (await other.authorize()).body;
      const mine = (await m.authorize()).body;
      clock.advance(8 * DAY);
      expect(await sweeper.runOnce({ merchantCode: m.merchantCode, environment: 'sandbox' })).toBe(1);
      expect((await other.get(theirs.id)).body.status).toBe('authorized');
      expect((await m.get(mine.id)).body.status).toBe('cancelled');
      expect((await m.get(paid.id)).body.status).toBe('captured');
      expect(await sweeper.runOnce()).toBe(1);
      expect((await other.get(theirs.id)).body.status).toBe('cancelled');
    });
  });

  describe('swept on its interval', () => {
    const clock = new ManualClock(new Date());
    let stack: TestStack;

    beforeAll(async () => {
      stack = await TestStack.start({ clock, env: { AUTH_HOLD_DAYS: '2', HOLD_EXPIRY_SWEEP_MS: '100' } });
    });
    afterAll(() => stack.stop());

    it('voids the hold after AUTH_HOLD_DAYS without being asked', async () => {
      const m = await sandboxMerchant(stack);
      const p = (await m.authorize()).body;
      clock.advance(2 * DAY);
      const deadline = Date.now() + 5000;
      let status = 'authorized';
      while (status === 'authorized' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        status = (await m.get(p.id)).body.status;
      }
      expect(status).toBe('cancelled');
    });
  });
});
