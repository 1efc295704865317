import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { withoutUnknownFields } from './forwarded-body';
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

describe('withoutUnknownFields', () => {
  const body = {
    amount: 1,
    browserInfo: {},
    card: { number: '4', wallet: 'x', address: { city: 'Oslo', zip: '0150' } },
    stops: [{ city: 'a' }, { city: 'b', floor: 2 }],
    metadata: { anything: 'goes' },
  };

  it('drops the unknown fields at every depth and names them as unknownFieldPaths does', () => {
    const { value, ignored } = withoutUnknownFields(Order, body);
    expect(value).toEqual({
      amount: 1,
      card: { number: '4', address: { city: 'Oslo' } },
      stops: [{ city: 'a' }, { city: 'b' }],
      metadata: { anything: 'goes' },
    });
    expect(ignored).toEqual(unknownFieldPaths(Order, body));
  });

  it('leaves its input as it came, and a non-object alone', () => {
    const copy = JSON.parse(JSON.stringify(body)) as typeof body;
    withoutUnknownFields(Order, body);
    expect(body).toEqual(copy);
    expect(withoutUnknownFields(Order, 'text')).toEqual({ value: 'text', ignored: [] });
    expect(withoutUnknownFields(Order, { amount: 1, card: { number: '4' } })).toEqual({
      value: { amount: 1, card: { number: '4' } },
      ignored: [],
    });
  });
});
