import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { TextLimits } from './text-limits';

/** `merchantCode` where it is optional: needed only when the key maps to several merchants. */
@TextLimits()
export class MerchantQuery {
  @ApiPropertyOptional({ description: 'Needed when the key belongs to several merchants' })
  @IsOptional()
  @IsString()
  merchantCode?: string;
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
