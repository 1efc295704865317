import { addIsoDuration, parseRfc3339 } from '@app/clock';
import { AdvanceClockRequest } from '@app/contracts';
import { DomainError } from '@app/errors';

/**
 * Where POST /v1/sandbox/clock/advance moves a clock that reads `now`: to `to`, or `by` a duration from now.
 * 400 VALIDATION_FAILED for both, neither or a malformed one; 422 CLOCK_BACKWARDS for a time before `now`
 * (the clock keeps running, so a `to` read from GET a moment ago is already behind it); 422
 * CLOCK_ADVANCE_TOO_FAR for a time past `now` plus `maxAdvance` (an ISO 8601 duration, SANDBOX_MAX_ADVANCE),
 * which bounds the due work one call can start.
 */
export function advanceTarget(body: AdvanceClockRequest, now: Date, maxAdvance: string): Date {
  const hasTo = body.to !== undefined && body.to !== null;
  const hasBy = body.by !== undefined && body.by !== null;
  if (hasTo === hasBy) {
    throw DomainError.validation('Send exactly one of `to` (an RFC 3339 time) and `by` (an ISO 8601 duration)');
  }
  const param = hasTo ? 'to' : 'by';
  const target = hasTo ? parseRfc3339(body.to!) : addIsoDuration(now, body.by!);
  if (!target) {
    throw DomainError.validation(
      hasTo
        ? '`to` must be an RFC 3339 date-time with a time zone, e.g. 2026-03-01T00:00:00Z'
        : '`by` must be an ISO 8601 duration such as P1M, P3D or PT16M, ending before the year 10000',
      param,
    );
  }
  if (target.getTime() < now.getTime()) {
    throw new DomainError(
      'CLOCK_BACKWARDS',
      `The sandbox clock reads ${now.toISOString()}; it never moves backwards`,
      param,
    );
  }
  const farthest = addIsoDuration(now, maxAdvance);
  if (farthest && target.getTime() > farthest.getTime()) {
    throw new DomainError(
      'CLOCK_ADVANCE_TOO_FAR',
      `One advance moves the sandbox clock at most ${maxAdvance} (to ${farthest.toISOString()}); advance in steps`,
      param,
    );
  }
  return target;
}
