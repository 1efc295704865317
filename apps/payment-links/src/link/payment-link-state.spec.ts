import { DomainError } from '@app/errors';
import { isDue, LINK_MACHINE, LinkTrigger, payTrigger, transition } from './payment-link-state';

describe('payment link state table', () => {
  it('cancels an active link and answers an already cancelled one unchanged', () => {
    expect(transition('active', 'cancel')).toEqual({ to: 'cancelled', event: 'payment_link.cancelled' });
    expect(transition('cancelled', 'cancel')).toEqual({ to: 'cancelled', event: null });
  });

  it.each(['used', 'expired'] as const)('refuses to cancel a %s link with INVALID_STATE', (from) => {
    expect(() => transition(from, 'cancel')).toThrow(DomainError);
    try {
      transition(from, 'cancel');
    } catch (e) {
      expect((e as DomainError).code).toBe('INVALID_STATE');
    }
  });

  it('pays only an active link: the last use moves it to used, an earlier one keeps it active', () => {
    expect(transition('active', 'pay')).toEqual({ to: 'active', event: 'payment_link.used' });
    expect(transition('active', 'pay_last')).toEqual({ to: 'used', event: 'payment_link.used' });
    for (const from of ['used', 'expired', 'cancelled'] as const) {
      for (const t of ['pay', 'pay_last', 'expire'] as LinkTrigger[]) {
        expect(() => transition(from, t)).toThrow(/Cannot/);
      }
    }
  });

  it('counts a payment that finished after the link closed without reopening it', () => {
    expect(transition('cancelled', 'pay_after_close')).toEqual({ to: 'cancelled', event: 'payment_link.used' });
    expect(transition('expired', 'pay_after_close')).toEqual({ to: 'expired', event: 'payment_link.used' });
    expect(transition('used', 'pay_after_close')).toEqual({ to: 'used', event: 'payment_link.used' });
    expect(() => transition('active', 'pay_after_close')).toThrow(/Cannot/);
  });

  it('every other trigger starts only from active', () => {
    for (const [name, t] of Object.entries(LINK_MACHINE.spec.moves)) {
      if (name !== 'pay_after_close') expect(t.from).toEqual(['active']);
    }
  });

  it('a payment is the last use at maxUses, an earlier one below it, a late one once the link closed', () => {
    expect(payTrigger({ status: 'active', maxUses: null }, 5)).toBe('pay');
    expect(payTrigger({ status: 'active', maxUses: 3 }, 2)).toBe('pay');
    expect(payTrigger({ status: 'active', maxUses: 3 }, 3)).toBe('pay_last');
    expect(payTrigger({ status: 'active', maxUses: 1 }, 1)).toBe('pay_last');
    for (const status of ['used', 'expired', 'cancelled'] as const) {
      expect(payTrigger({ status, maxUses: 3 }, 2)).toBe('pay_after_close');
    }
  });

  it('is due at its expiry instant, not before, and only while active', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    expect(isDue({ status: 'active', expiresAt: at }, new Date(at.getTime() - 1))).toBe(false);
    expect(isDue({ status: 'active', expiresAt: at }, at)).toBe(true);
    expect(isDue({ status: 'used', expiresAt: at }, at)).toBe(false);
    expect(isDue({ status: 'active', expiresAt: null }, at)).toBe(false);
  });
});
