import { Transform } from 'class-transformer';

/**
 * An optional free-text field where `""` means the same as leaving it out: integrations send
 * an empty string for "none". Put it before the field's other rules; a required field never takes it.
 */
export const EmptyAsAbsent = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value));
