import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
} from 'class-validator';
import { ENVIRONMENTS, Environment } from '../context';
import { ACQUIRERS, Acquirer, PAYMENT_METHODS, PaymentMethod } from './payment-types';
import { TextLimits } from '../text-limits';

/** POST /v1/admin/merchants/{merchantCode}/connections: creates the connection, or replaces the one with that code. */
@TextLimits()
export class ConnectionRequest {
  @ApiProperty({ example: 'sandbox-eu' })
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, { message: 'connectionCode must be 1-64 letters, digits, _ or -' })
  connectionCode: string;

  @ApiProperty({ example: 'Sandbox Europe' }) @IsString() @MinLength(1) connectionName: string;
  @ApiProperty({ enum: ACQUIRERS }) @IsIn(ACQUIRERS) acquirer: Acquirer;
  @ApiProperty({ enum: ENVIRONMENTS }) @IsIn(ENVIRONMENTS) environment: Environment;

  @ApiProperty({ example: ['EUR', 'USD'], type: [String], description: 'Empty: every currency' })
  @IsArray()
  @ArrayMaxSize(200)
  @ArrayUnique()
  @Matches(/^[A-Z]{3}$/, { each: true, message: 'currencies must be ISO 4217 codes' })
  currencies: string[];

  @ApiProperty({ example: ['card'], enum: PAYMENT_METHODS, isArray: true, description: 'Empty: every method' })
  @IsArray()
  @ArrayUnique()
  @IsIn(PAYMENT_METHODS, { each: true })
  methods: PaymentMethod[];

  @ApiProperty({ example: 10, description: 'Lower numbers are tried first' })
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  priority: number;
}

export class ConnectionResponse {
  @ApiProperty() connectionCode: string;
  @ApiProperty() connectionName: string;
  @ApiProperty({ enum: ACQUIRERS }) acquirer: string;
  @ApiProperty({ enum: ENVIRONMENTS }) environment: string;
  @ApiProperty({ type: [String] }) currencies: string[];
  @ApiProperty({ enum: PAYMENT_METHODS, isArray: true }) methods: string[];
  @ApiProperty() priority: number;
  @ApiProperty({ description: 'The built-in default connection every merchant gets' }) isDefault: boolean;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;
}

export class ListConnectionsQuery {
  @ApiPropertyOptional({ enum: ENVIRONMENTS, description: 'Both environments when absent' })
  @IsOptional()
  @IsIn(ENVIRONMENTS)
  environment?: Environment;
}

/** What the service answers to an upsert: the connection and whether it was new. */
export interface UpsertConnectionResult {
  created: boolean;
  connection: ConnectionResponse;
}
