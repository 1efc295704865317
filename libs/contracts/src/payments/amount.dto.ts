import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsString, Matches, Max, Min } from 'class-validator';

/** Amount on the wire. The service checks the currency and exponent against ISO 4217. */
export class AmountDto {
  @ApiProperty({ example: 'USD', description: 'ISO 4217 code' })
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code (three capital letters)' })
  currency: string;

  @ApiProperty({ example: 1000, description: 'Integer of minor units (value = decimal amount × 10^exponent)' })
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  value: number;

  @ApiProperty({ example: 2, description: 'Decimal places of the currency (2 for USD/EUR, 0 for JPY)' })
  @IsInt()
  @Min(0)
  @Max(18)
  exponent: number;
}
