import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { unknownFieldPaths } from './ignored-fields';

class Address {
  @IsString() city: string;
}
class Card {
  @IsString() number: string;
  @IsOptional() @ValidateNested() @Type(() => Address) address?: Address;
}
class Order {
  @IsInt() amount: number;
  @ValidateNested() @Type(() => Card) card: Card;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Address) stops?: Address[];
  @IsOptional() metadata?: Record<string, string>;
}

describe('unknownFieldPaths', () => {
  it('names unknown fields at every depth, with paths', () => {
    const paths = unknownFieldPaths(Order, {
      amount: 1,
      browserInfo: {},
      card: { number: '4', wallet: 'x', address: { city: 'Oslo', zip: '0150' } },
      stops: [{ city: 'a' }, { city: 'b', floor: 2 }],
      metadata: { anything: 'goes' },
    });
    expect(paths).toEqual(['browserInfo', 'card.wallet', 'card.address.zip', 'stops[1].floor']);
  });

  it('is empty for a clean body or a non-object', () => {
    expect(unknownFieldPaths(Order, { amount: 1, card: { number: '4' } })).toEqual([]);
    expect(unknownFieldPaths(Order, 'text')).toEqual([]);
    expect(unknownFieldPaths(Order, null)).toEqual([]);
  });
});
