import { registerDecorator, ValidationOptions } from 'class-validator';

/** Limits of `metadata`: at most 50 keys, a key up to 40 characters, a value up to 500, strings only. */
export const METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500 } as const;

/** Why a metadata object breaks the limits, or undefined when it is fine. */
export function metadataProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'metadata must be an object';
  const entries = Object.entries(value);
  if (entries.length > METADATA_LIMITS.keys) return `metadata has more than ${METADATA_LIMITS.keys} keys`;
  for (const [key, v] of entries) {
    if (key.length === 0 || key.length > METADATA_LIMITS.keyLength) {
      return `metadata keys must be 1-${METADATA_LIMITS.keyLength} characters`;
    }
    if (typeof v !== 'string') return `metadata.${key} must be a string`;
    if (v.length > METADATA_LIMITS.valueLength) {
      return `metadata.${key} must be at most ${METADATA_LIMITS.valueLength} characters`;
    }
  }
  return undefined;
}

/** String key/value pairs within the `metadata` limits. */
export function IsMetadata(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isMetadata',
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (value: unknown) => metadataProblem(value) === undefined,
        defaultMessage: (args) => metadataProblem(args?.value) ?? 'metadata is invalid',
      },
    });
}
