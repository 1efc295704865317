import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MinLength,
  Validate,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { ENVIRONMENTS } from '@app/contracts';
import { TextLimits } from '@app/contracts';
import { isAllowedOriginShape } from '../auth/allowed-origins';

@ValidatorConstraint({ name: 'allowedOrigin' })
class AllowedOriginShape implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return isAllowedOriginShape(value);
  }

  defaultMessage(): string {
    return 'allowedOrigins must be origins like https://shop.example.com (scheme, host and port; http only on localhost)';
  }
}

export const MERCHANT_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

@TextLimits()
export class CreateMerchantRequest {
  @ApiProperty({ example: 'acme', description: 'Letters, digits, _ and -, up to 64 characters' })
  @IsString()
  @Matches(MERCHANT_CODE_PATTERN, { message: 'merchantCode must be 1-64 letters, digits, _ or -' })
  merchantCode: string;

  @ApiProperty({ example: 'Acme Inc.' })
  @IsString()
  @MinLength(1)
  name: string;
}

export class MerchantResponse {
  @ApiProperty() id: string;
  @ApiProperty({ description: 'Integer id of the merchant account, as plans and subscriptions report it' })
  merchantId: number;
  @ApiProperty() merchantCode: string;
  @ApiProperty() name: string;
  @ApiProperty() createdAt: string;
}

@TextLimits()
export class CreateKeyRequest {
  @ApiProperty({ example: ['acme'], type: [String] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsString({ each: true })
  merchantCodes: string[];

  @ApiProperty({ enum: ['private', 'public'] })
  @IsIn(['private', 'public'])
  type: 'private' | 'public';

  @ApiProperty({ enum: ENVIRONMENTS })
  @IsIn(ENVIRONMENTS)
  environment: 'production' | 'sandbox';
}

export class CreatedKeyResponse {
  @ApiProperty() id: string;
  @ApiProperty({ description: 'The key itself: shown only in this answer, stored only as a hash' }) key: string;
  @ApiProperty({ enum: ['private', 'public'] }) type: string;
  @ApiProperty({ enum: ENVIRONMENTS }) environment: string;
  @ApiProperty({ type: [String] }) merchantCodes: string[];
  @ApiProperty() createdAt: string;
}

export class KeyResponse {
  @ApiProperty() id: string;
  @ApiProperty({ nullable: true, type: String, description: 'The name given in the dashboard; null otherwise' })
  name: string | null;
  @ApiProperty({ example: 'prv_sandbox_AbCd…' }) keyHint: string;
  @ApiProperty({ enum: ['private', 'public'] }) type: string;
  @ApiProperty({ enum: ENVIRONMENTS }) environment: string;
  @ApiProperty({ type: [String] }) merchantCodes: string[];
  @ApiProperty() createdAt: string;
  @ApiPropertyOptional({ nullable: true, type: String }) revokedAt: string | null;
}

@TextLimits()
export class ListKeysQuery {
  @ApiPropertyOptional() @IsOptional() @IsString() merchantCode?: string;
}

@TextLimits()
export class AllowedOriginsRequest {
  @ApiProperty({
    example: ['https://shop.example.com'],
    type: [String],
    description:
      'Web origins (scheme, host and port; HTTPS, or http on localhost) allowed to embed the merchant’s card ' +
      'fields. Replaces the list; an empty list allows none.',
  })
  @IsArray()
  @ArrayMaxSize(20)
  @Validate(AllowedOriginShape, { each: true })
  allowedOrigins: string[];
}

export class AllowedOriginsResponse {
  @ApiProperty() merchantCode: string;
  @ApiProperty({ type: [String] }) allowedOrigins: string[];
}
