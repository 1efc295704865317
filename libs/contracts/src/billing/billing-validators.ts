import { Transform } from 'class-transformer';
import { registerDecorator } from 'class-validator';

/** DECISIONS §1: `""` in an optional free-text field means the same as leaving it out. */
export const EmptyAsAbsent = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value));

/**
 * A field the request may not carry at all (an immutable plan field on PATCH, `cardOnFile` on a subscription):
 * refused with 400 naming it instead of being ignored as an unknown field would be.
 */
export function Refused(message: string): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'refused',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message },
      validator: { validate: (value: unknown) => value === undefined },
    });
}
