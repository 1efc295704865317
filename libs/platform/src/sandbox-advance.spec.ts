import { DomainError } from '@app/errors';
import { sandboxAdvanceScope } from './sandbox-advance';

describe('sandboxAdvanceScope', () => {
  const ctx = { requestId: 'r', merchantCode: 'm1', environment: 'sandbox' as const };

  it('is the merchant’s sandbox', () => {
    expect(sandboxAdvanceScope(ctx)).toEqual({ merchantCode: 'm1', environment: 'sandbox' });
  });

  it('refuses production and a context without a merchant with AUTH_INSUFFICIENT_SCOPE', () => {
    for (const bad of [
      { ...ctx, environment: 'production' as const },
      { ...ctx, merchantCode: '' },
    ]) {
      let error: unknown;
      try {
        sandboxAdvanceScope(bad);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('AUTH_INSUFFICIENT_SCOPE');
    }
  });
});
