import { billingEnv } from '../../apps/billing/src/config';
import { RenewalFaults } from '../../apps/billing/src/renewal/renewal-faults';
import { gatewayEnv } from '../../apps/gateway/src/config';
import { paymentLinksEnv } from '../../apps/payment-links/src/config';
import { paymentsEnv } from '../../apps/payments/src/config';
import { webhooksEnv } from '../../apps/webhooks/src/config';
import { CrashPoints } from '../../apps/payments/src/reservation/crash-points';
import { faultOverrides } from '../support/fault-injection';

/** Test-only fault injection is no part of the production configuration: tests inject it as providers. */
describe('fault injection', () => {
  const schemas = {
    gateway: gatewayEnv,
    payments: paymentsEnv,
    'payment-links': paymentLinksEnv,
    billing: billingEnv,
    webhooks: webhooksEnv,
  };

  it.each(Object.entries(schemas))('%s has no setting that injects a fault or speaks of tests', (_, schema) => {
    const keys = Object.keys(schema);
    expect(keys.length).toBeGreaterThan(5);
    expect(keys.filter((k) => /FAULT|CRASH|TEST/.test(k))).toEqual([]);
    const descriptions = Object.entries(schema).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
    expect(descriptions.filter((d) => /tests? only/i.test(d))).toEqual([]);
  });

  it('the seams the apps start with do nothing', () => {
    const kill = jest.spyOn(process, 'kill').mockImplementation(() => true);
    try {
      new CrashPoints().at('before_acquirer');
      new CrashPoints().at('after_acquirer');
      expect(() => new RenewalFaults().afterCharge()).not.toThrow();
      expect(kill).not.toHaveBeenCalled();
    } finally {
      kill.mockRestore();
    }
  });

  it('a test injects them as overrides of those seams', () => {
    const kill = jest.spyOn(process, 'kill').mockImplementation(() => true);
    try {
      const [crash] = faultOverrides('payments', { crashAt: 'after_acquirer' }) as Array<{
        provide: unknown;
        useValue: CrashPoints;
      }>;
      expect(crash.provide).toBe(CrashPoints);
      crash.useValue.at('before_acquirer');
      expect(kill).not.toHaveBeenCalled();
      crash.useValue.at('after_acquirer');
      expect(kill).toHaveBeenCalledWith(process.pid, 'SIGKILL');
      const [renewal] = faultOverrides('billing', { crashAfterCharge: 1 }) as Array<{
        provide: unknown;
        useValue: RenewalFaults;
      }>;
      expect(renewal.provide).toBe(RenewalFaults);
      expect(() => renewal.useValue.afterCharge()).toThrow('Injected crash');
      expect(() => renewal.useValue.afterCharge()).not.toThrow();
      expect(faultOverrides('billing')).toEqual([]);
      expect(() => faultOverrides('payment-links', { crashAt: 'after_acquirer' })).toThrow('no fault');
    } finally {
      kill.mockRestore();
    }
  });
});
