import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { TextLimits } from './text-limits';
import { MerchantCodeField } from './merchant-code';

/** A query string that names only the merchant (`merchantCode`), as every merchant route's may. */
@TextLimits()
export class MerchantQuery {
  @MerchantCodeField() merchantCode?: string;
}

/** The list convention (docs/api.md): newest first, `limit` 1–100 (default 20), `startingAfter` an id. */
@TextLimits()
export class PageQuery extends MerchantQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ description: 'An id from the previous page: answers the items after it' })
  @IsOptional()
  @IsString()
  startingAfter?: string;
}
