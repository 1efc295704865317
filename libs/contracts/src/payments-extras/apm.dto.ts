import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { TextLimits } from '../text-limits';
import { MerchantCodeField } from '../merchant-code';

export const APM_METHODS = ['pix', 'boleto', 'ach'] as const;
export type ApmMethod = (typeof APM_METHODS)[number];

/** Brazilian CPF (11 digits) or CNPJ (14 digits), digits only. */
const DOCUMENT = /^(\d{11}|\d{14})$/;

export class PixApmData {
  @ApiPropertyOptional({ description: 'CPF or CNPJ, digits only' })
  @IsOptional()
  @IsString()
  @Matches(DOCUMENT, { message: 'payerDocument must be a CPF (11 digits) or CNPJ (14 digits)' })
  payerDocument?: string;

  @ApiPropertyOptional({ description: 'Lifetime of the QR code', minimum: 60, maximum: 2592000, default: 3600 })
  @IsOptional()
  @IsInt()
  @Min(60)
  @Max(30 * 24 * 3600)
  expiresInSeconds?: number;
}

export class BoletoApmData {
  @ApiProperty({ description: 'CPF or CNPJ, digits only' })
  @IsString()
  @Matches(DOCUMENT, { message: 'payerDocument must be a CPF (11 digits) or CNPJ (14 digits)' })
  payerDocument: string;

  @ApiProperty({ maxLength: 255 }) @IsString() @Length(1, 255) payerName: string;

  @ApiPropertyOptional({ example: '2030-01-31', description: 'YYYY-MM-DD, today or later; default in 3 days' })
  @IsOptional()
  @IsString()
  @Matches(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, { message: 'dueDate must be YYYY-MM-DD' })
  dueDate?: string;
}

export class AchApmData {
  @ApiProperty({ maxLength: 255 }) @IsString() @Length(1, 255) accountHolderName: string;

  @ApiProperty({ description: '4 to 17 digits' })
  @IsString()
  @Matches(/^\d{4,17}$/, { message: 'accountNumber must be 4 to 17 digits' })
  accountNumber: string;

  @ApiProperty({ description: 'ABA routing number, 9 digits with a valid check digit' })
  @IsString()
  @Matches(/^\d{9}$/, { message: 'routingNumber must be 9 digits' })
  routingNumber: string;

  @ApiProperty({ enum: ['checking', 'savings'] }) @IsIn(['checking', 'savings']) accountType: 'checking' | 'savings';
}

export const SETTLE_OUTCOMES = ['paid', 'failed', 'expired'] as const;
export type SettleOutcome = (typeof SETTLE_OUTCOMES)[number];

@TextLimits()
export class SettleRequest {
  @ApiProperty({ enum: SETTLE_OUTCOMES }) @IsIn(SETTLE_OUTCOMES) outcome: SettleOutcome;

  @MerchantCodeField() merchantCode?: string;
}

/** Command body of the sandbox settle command. */
export class SettleCommand {
  @IsString() @Length(1, 255) paymentId: string;
  @IsIn(SETTLE_OUTCOMES) outcome: SettleOutcome;
}
