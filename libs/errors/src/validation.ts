import { ValidationError } from 'class-validator';
import { DomainError } from './domain-error';

/** First constraint failure of a class-validator result as a VALIDATION_FAILED error naming the field path. */
export function validationFailed(errors: ValidationError[], prefix = ''): DomainError {
  const first = firstFailure(errors, prefix);
  return DomainError.validation(first?.message ?? 'Invalid request', first?.param);
}

function firstFailure(errors: ValidationError[], prefix: string): { param: string; message: string } | undefined {
  for (const error of errors) {
    const param = prefix ? `${prefix}.${error.property}` : error.property;
    const constraints = Object.values(error.constraints ?? {});
    if (constraints.length) {
      const message = constraints[0].replace(error.property, param);
      return { param, message };
    }
    const nested = firstFailure(error.children ?? [], param);
    if (nested) return nested;
  }
  return undefined;
}
