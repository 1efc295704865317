import { ClassConstructor, plainToInstance } from 'class-transformer';
import { validate, ValidationError } from 'class-validator';
import { DomainError } from './domain-error';
import { memoizeValidationMetadata } from './validation-metadata';

memoizeValidationMetadata();

/**
 * A JSON body (already parsed, so no prototype keys, binary values or sparse arrays) as an instance of its
 * DTO class: fields the class does not declare are dropped, and the first rule it breaks is a 400
 * VALIDATION_FAILED naming the field. The one validation of the gateway's bodies and of the services' commands.
 */
export async function validatedBody<T extends object>(type: ClassConstructor<T>, value: unknown): Promise<T> {
  if (value !== undefined && value !== null && (typeof value !== 'object' || Array.isArray(value))) {
    throw DomainError.validation('The request body must be a JSON object');
  }
  const instance = plainToInstance(type, value ?? {});
  const errors = await validate(instance, {
    whitelist: true,
    forbidUnknownValues: false,
    validationError: { target: false, value: false },
  });
  if (errors.length) throw validationFailed(errors);
  return instance;
}

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
