import { QueryFailedError } from 'typeorm';
import type { ErrorCode } from '@app/contracts';
import { DomainError } from '@app/errors';

/** Refusals that say the request itself is wrong: sent again unchanged, it is refused again. */
const DETERMINISTIC_CODES: ReadonlySet<ErrorCode> = new Set([
  'VALIDATION_FAILED',
  'INVALID_EXPONENT',
  'CURRENCY_MISMATCH',
  // No connection of the merchant takes the charge: parked until an operator adds one, then retried.
  'NO_CONNECTION',
]);

/** Longest reason kept on a parked subscription (the first line of the error, shortened). */
const MAX_REASON = 500;

/**
 * Whether a renewal step failed for a reason that retrying cannot change, so it is parked rather than retried
 * after every lease: arithmetic out of range (a usage total or an amount past Number.MAX_SAFE_INTEGER, a date
 * out of range), a broken type invariant, a PostgreSQL data exception (SQLSTATE class 22, e.g. a bigint
 * overflow), or a refusal of the charge's input by payments. Anything else (a timeout, a lost connection, a
 * deadlock, no payments replica) is transient: the step is retried when its lease runs out.
 */
export function isDeterministic(e: unknown): boolean {
  if (e instanceof RangeError || e instanceof TypeError) return true;
  if (e instanceof DomainError) return DETERMINISTIC_CODES.has(e.code);
  if (e instanceof QueryFailedError) {
    const code = (e as QueryFailedError & { driverError?: { code?: unknown } }).driverError?.code;
    return typeof code === 'string' && code.startsWith('22');
  }
  return false;
}

/** The readable reason a parked renewal shows: the error's kind and message. */
export function parkReason(e: unknown): string {
  const text = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  const line = text.split('\n')[0];
  return line.length > MAX_REASON ? `${line.slice(0, MAX_REASON - 1)}…` : line;
}
