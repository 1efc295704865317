import { DomainError } from '@app/errors';
import { ApiErrors, ErrorEntry, ErrorNotes } from '../http/api-errors';
import { forwardedTo } from '../http/upstream-timeout.doc';

/** An operation of the billing service that honours an Idempotency-Key. */
export const IDEMPOTENT: ErrorEntry[] = ['IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED'];

/** An operation that charges or verifies a card through the payments service. */
export const CHARGES: ErrorNotes = {
  PAYMENT_DECLINED: 'the charge or verification was declined (`paymentId`, `refusalCode`); nothing was kept',
  SERVICE_UNAVAILABLE: 'the payments service could not be reached: nothing was kept',
};

/** The error answers of a billing-service route: its own codes, and those of a forwarded route. */
export const BillingErrors = (...entries: ErrorEntry[]): MethodDecorator & ClassDecorator =>
  ApiErrors(forwardedTo('billing'), ...entries);

/** A plan id in the path: an integer, else no such plan (404, as for any unknown handle). */
export function planIdOf(raw: string): number {
  const id = /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw DomainError.notFound('plan', 'id');
  return id;
}
