import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsOptional, IsString, ValidateNested } from 'class-validator';
import { FieldAliases } from '@app/contracts';
import { DomainError } from '@app/errors';
import { resolveFieldAliases } from './field-aliases';
import { unknownFieldPaths } from './ignored-fields';

@FieldAliases({ address1: 'line1', countryCode: 'country' })
class Address {
  @IsOptional() @IsString() line1?: string;
  @IsOptional() @IsString() city?: string;
  @IsOptional() @IsString() country?: string;
}
class Card {
  @IsOptional() @ValidateNested() @Type(() => Address) cardAddress?: Address;
}
class Order {
  @ValidateNested() @Type(() => Card) card: Card;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Address) stops?: Address[];
}

describe('resolveFieldAliases', () => {
  it('renames aliases to their fields at any depth, in arrays too, and leaves the input as it came', () => {
    const input = {
      card: { cardAddress: { address1: '1 Main St', city: 'Austin', countryCode: 'US', extra: 1 } },
      stops: [{ address1: 'Dock 4' }],
    };
    const out = resolveFieldAliases(Order, input);
    expect(out).toEqual({
      card: { cardAddress: { line1: '1 Main St', city: 'Austin', country: 'US', extra: 1 } },
      stops: [{ line1: 'Dock 4' }],
    });
    expect(input.card.cardAddress).toHaveProperty('address1');
    // Only the unknown field is left to be named in X-Ignored-Fields.
    expect(unknownFieldPaths(Order, out)).toEqual(['card.cardAddress.extra']);
  });

  it('accepts both spellings with the same value; different values are VALIDATION_FAILED naming the field', () => {
    expect(resolveFieldAliases(Card, { cardAddress: { line1: 'a', address1: 'a' } })).toEqual({
      cardAddress: { line1: 'a' },
    });
    for (const cardAddress of [
      { line1: 'a', address1: 'b' },
      { address1: 'b', line1: 'a' },
    ]) {
      let error: unknown;
      try {
        resolveFieldAliases(Order, { card: { cardAddress } });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', param: 'card.cardAddress.line1' });
    }
  });

  it('leaves anything that is not an object alone', () => {
    expect(resolveFieldAliases(Order, null)).toBeNull();
    expect(resolveFieldAliases(Order, { card: 'x' })).toEqual({ card: 'x' });
  });
});
