import { registerDecorator } from 'class-validator';

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
