import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { METER_CODE_PATTERN } from './plan.dto';
import { TextLimits } from '../text-limits';
import { MerchantCodeField } from '../merchant-code';

export const METER_AGGREGATIONS = ['sum', 'count', 'max', 'last'] as const;
export type MeterAggregation = (typeof METER_AGGREGATIONS)[number];
export const PRICING_SCHEME_NAMES = ['per_unit', 'package', 'graduated', 'volume'] as const;

const MAX_MONEY = Number.MAX_SAFE_INTEGER;

export class PricingTierDto {
  @ApiPropertyOptional({ type: Number, nullable: true, description: 'Last unit of the tier; null on the last tier' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_MONEY)
  upTo: number | null;

  @ApiProperty() @IsInt() @Min(0) @Max(MAX_MONEY) unitAmount: number;
  @ApiPropertyOptional() @IsOptional() @IsInt() @Min(0) @Max(MAX_MONEY) flatAmount?: number;
}

/**
 * `{scheme: per_unit, unitAmount}` | `{scheme: package, packageSize, packageAmount}` |
 * `{scheme: graduated|volume, tiers}`; which fields a scheme needs is checked by the billing service.
 */
export class PricingDto {
  @ApiProperty({ enum: PRICING_SCHEME_NAMES }) @IsIn(PRICING_SCHEME_NAMES) scheme: string;
  @ApiPropertyOptional() @IsOptional() @IsInt() @Min(0) @Max(MAX_MONEY) unitAmount?: number;
  @ApiPropertyOptional() @IsOptional() @IsInt() @Min(1) @Max(MAX_MONEY) packageSize?: number;
  @ApiPropertyOptional() @IsOptional() @IsInt() @Min(0) @Max(MAX_MONEY) packageAmount?: number;

  @ApiPropertyOptional({ type: [PricingTierDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => PricingTierDto)
  tiers?: PricingTierDto[];
}

/** POST /v1/subscription/meter. */
@TextLimits()
export class CreateMeterRequest {
  @MerchantCodeField() merchantCode?: string;

  @ApiProperty({ example: 'api_requests' })
  @IsString()
  @Matches(METER_CODE_PATTERN, { message: 'code must be 1-64 letters, digits or . _ -' })
  code: string;

  @ApiProperty({ example: 'API requests' }) @IsString() @MinLength(1) name: string;
  @ApiProperty({ enum: METER_AGGREGATIONS }) @IsIn(METER_AGGREGATIONS) aggregation: MeterAggregation;
  @ApiPropertyOptional({ default: 0 }) @IsOptional() @IsInt() @Min(0) @Max(MAX_MONEY) includedUnits?: number;

  @ApiProperty({ type: PricingDto })
  @IsObject()
  @ValidateNested()
  @Type(() => PricingDto)
  pricing: PricingDto;
}

export class MeterView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() code: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: METER_AGGREGATIONS }) aggregation: MeterAggregation;
  @ApiProperty() includedUnits: number;
  @ApiProperty({ type: PricingDto }) pricing: Record<string, unknown>;
  @ApiProperty() createdAt: string;
}
