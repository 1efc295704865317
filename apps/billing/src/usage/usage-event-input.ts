import { IDEMPOTENCY_KEY_FORMAT, isValidIdempotencyKey, TEXT_LIMITS, UsageBatchEvent } from '@app/contracts';
import { DomainError } from '@app/errors';

const LIMITS = TEXT_LIMITS.UsageEventFields;

/**
 * One event of a usage batch, checked by hand against the rules of the `UsageBatchEvent` DTO: class-validator
 * costs 12 µs an event once warm (90 µs measured on a busy machine), 12 ms or more of a 1,000-event batch,
 * against well under 1 ms for this. The unit test holds this reader to the DTO (same events accepted, same
 * field named). Unknown fields are dropped, as the DTO's whitelist would.
 */
export function readUsageBatchEvent(value: unknown): UsageBatchEvent | DomainError {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return DomainError.validation('Each event must be a JSON object');
  }
  const v = value as Record<string, unknown>;
  // In the order class-validator reports them: the subclass's own field first.
  const problem =
    (v.idempotencyKey == null ? undefined : key(v.idempotencyKey)) ??
    text(v.subscriptionId, 'subscriptionId', LIMITS.subscriptionId) ??
    text(v.meterCode, 'meterCode', LIMITS.meterCode) ??
    quantity(v.quantity) ??
    (v.occurredAt == null ? undefined : text(v.occurredAt, 'occurredAt', LIMITS.occurredAt));
  if (problem) return problem;
  const event: UsageBatchEvent = {
    subscriptionId: v.subscriptionId as string,
    meterCode: v.meterCode as string,
    quantity: v.quantity as number,
  };
  // null means absent, as @IsOptional() has it.
  if (v.occurredAt != null) event.occurredAt = v.occurredAt as string;
  if (v.idempotencyKey != null) event.idempotencyKey = v.idempotencyKey as string;
  return event;
}

function text(value: unknown, param: string, max: number): DomainError | undefined {
  if (typeof value === 'string' && value.length >= 1 && value.length <= max) return undefined;
  return DomainError.validation(`${param} must be a string of 1-${max} characters`, param);
}

function quantity(value: unknown): DomainError | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return undefined;
  return DomainError.validation('quantity must be an integer >= 0', 'quantity');
}

function key(value: unknown): DomainError | undefined {
  if (isValidIdempotencyKey(value)) return undefined;
  return DomainError.validation(`idempotencyKey must be ${IDEMPOTENCY_KEY_FORMAT}`, 'idempotencyKey');
}
