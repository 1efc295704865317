import { CallerContext } from '@app/contracts';
import { DomainError } from '@app/errors';

/** Whose clock a `cmd.<service>.sandbox.clock-advanced` moves: one merchant's sandbox, never production. */
export function sandboxAdvanceScope(ctx: CallerContext): { merchantCode: string; environment: 'sandbox' } {
  if (ctx.environment !== 'sandbox' || !ctx.merchantCode) {
    throw new DomainError('AUTH_INSUFFICIENT_SCOPE', 'Only a merchant’s sandbox clock can be advanced');
  }
  return { merchantCode: ctx.merchantCode, environment: ctx.environment };
}
