import { CallerContext, Environment, PaymentMethod, RefusalCodeDto } from '@app/contracts';
import { DomainError } from '@app/errors';
import { AuthorizationOutcome } from '../connector/provider-connector';
import { isSimulated } from '../payment/simulated';
import type { PaymentSession } from './payment-session.entity';

/**
 * The hosted 3-D Secure challenge and the APM instructions (Pix key, boleto of bank 999, bank-debit page) are
 * simulations: whoever opens the page decides the outcome. They act on sandbox payments only. Until a
 * connector supplies a real challenge or real instructions, a production payment that would need one is
 * declined or refused when it is made, and a production session is refused on every keyless route.
 */
const SIMULATED_IN: Environment = 'sandbox';

/** Why a production payment the acquirer sent to 3-D Secure is declined at once. */
export const CHALLENGE_UNAVAILABLE: RefusalCodeDto = {
  reasonCode: '1A',
  reason: 'Additional authentication required: the 3-D Secure challenge is simulated and runs in sandbox only',
  originalReasonCode: '1A',
  originalReason: 'THREEDS_CHALLENGE_UNAVAILABLE',
  recoveryAction: 'switch_method',
};

/**
 * The acquirer's answer as the payment records it: in production a `challenge_required` becomes a decline
 * (CHALLENGE_UNAVAILABLE), so no challenge session is opened and the payment never waits on the simulated page.
 */
export function withoutSimulatedChallenge(
  ctx: Pick<CallerContext, 'environment'>,
  outcome: AuthorizationOutcome,
): AuthorizationOutcome {
  // A provider's own challenge (`action`) is real: the hosted page sends the shopper to it, in any environment.
  if (outcome.kind !== 'challenge_required' || outcome.action || ctx.environment === SIMULATED_IN) return outcome;
  return { kind: 'declined', acquirerReference: outcome.acquirerReference, refusalCode: CHALLENGE_UNAVAILABLE };
}

/** Before anything is reserved or charged: an APM payment in production is 400 naming `paymentMethod`. */
export function assertApmSimulated(ctx: Pick<CallerContext, 'environment'>, method: PaymentMethod): void {
  if (ctx.environment === SIMULATED_IN) return;
  throw DomainError.validation(
    `${method} payments are simulated and taken in sandbox only: no connector supplies real ${method} instructions`,
    'paymentMethod',
  );
}

/**
 * The keyless routes of a session (hosted pages, the challenge's buttons, resume) act on sandbox sessions only:
 * a production one (opened before this rule) is 403 AUTH_INSUFFICIENT_SCOPE, as a production key on a sandbox
 * route is.
 */
export function assertSessionSimulated(s: Pick<PaymentSession, 'environment' | 'kind' | 'providerAction'>): void {
  // A provider's challenge is not simulated: its session acts in production too.
  if (s.environment === SIMULATED_IN || s.providerAction) return;
  const what = s.kind === 'threeds' ? 'The 3-D Secure challenge' : 'The APM instructions page';
  throw new DomainError(
    'AUTH_INSUFFICIENT_SCOPE',
    `${what} is simulated and acts on sandbox payments only`,
    'sessionId',
  );
}

/**
 * The simulated pages themselves (the challenge's buttons, the sandbox 3DS route, the simulated page a session
 * shows) act on a session of a simulator connection's payment only: a session of a real provider's payment
 * without a provider action of its own, in any environment, is 403 AUTH_INSUFFICIENT_SCOPE, whoever holds its id.
 */
export function assertSimulatorSession(
  s: Pick<PaymentSession, 'environment' | 'kind' | 'providerAction'>,
  payment: { acquirer: string | null } | undefined,
): void {
  assertSessionSimulated(s);
  if (payment && isSimulated(payment)) return;
  const what = s.kind === 'threeds' ? 'The 3-D Secure challenge' : 'The APM instructions page';
  throw new DomainError(
    'AUTH_INSUFFICIENT_SCOPE',
    `${what} is simulated and acts on payments of a simulator connection only`,
    'sessionId',
  );
}

/** The sandbox settle route settles a simulator connection's payment only (403 AUTH_INSUFFICIENT_SCOPE). */
export function assertSimulatorPayment(payment: { acquirer: string | null }): void {
  if (isSimulated(payment)) return;
  throw new DomainError(
    'AUTH_INSUFFICIENT_SCOPE',
    'Only a payment of a simulator connection is settled by the sandbox; its provider settles this one',
    'id',
  );
}
