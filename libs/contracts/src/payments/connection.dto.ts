import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ENVIRONMENTS, Environment } from '../context';
import { ACQUIRERS, Acquirer, PAYMENT_METHODS, PaymentMethod } from './payment-types';
import { TextLimits } from '../text-limits';

/** A connection's secrets at the provider: written through the admin API, encrypted at rest, never shown again. */
@TextLimits()
export class ConnectionCredentialsRequest {
  @ApiPropertyOptional({ description: 'Adyen: the X-API-Key. Stripe: the secret key (sk_test_…, sk_live_…)' })
  @IsOptional()
  @IsString()
  @MinLength(8)
  apiKey?: string;

  @ApiPropertyOptional({ description: 'Adyen: the merchant account payments are made under', example: 'AcmeECOM' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  merchantAccount?: string;

  @ApiPropertyOptional({ description: "Adyen: the standard webhook's HMAC key (hex)" })
  @IsOptional()
  @IsString()
  @Matches(/^[0-9A-Fa-f]{16,}$/, { message: 'credentials.hmacKey must be the hexadecimal HMAC key' })
  hmacKey?: string;

  @ApiPropertyOptional({ description: "Stripe: the webhook endpoint's signing secret (whsec_…)" })
  @IsOptional()
  @IsString()
  @MinLength(8)
  webhookSecret?: string;
}

/** Which credentials a connection holds: the last four characters of each, never the value. */
export class ConnectionCredentialsView {
  @ApiPropertyOptional({ example: 'x9Qa' }) apiKeyLast4?: string;
  @ApiPropertyOptional({ example: 'ECOM' }) merchantAccountLast4?: string;
  @ApiPropertyOptional() hmacKeyLast4?: string;
  @ApiPropertyOptional() webhookSecretLast4?: string;
  @ApiProperty({ description: 'The id of the CONNECTION_CREDENTIAL_KEYS key they are encrypted under' })
  keyId: string;
  @ApiProperty({ description: 'When they were last set' }) updatedAt: string;
}

export const CIRCUIT_STATES = ['closed', 'open', 'half_open'] as const;
export type CircuitState = (typeof CIRCUIT_STATES)[number];

/**
 * Why a call through a connection failed: `unreachable` (not sent, or the connector failed: 503
 * SERVICE_UNAVAILABLE), `timeout` (no answer within ACQUIRER_TIMEOUT_MS), `answer_lost` (sent, and the answer
 * was lost: a 5xx, a dropped connection; settled later by webhook or status sync). A decline is an answer.
 */
export const CONNECTION_FAILURE_REASONS = ['unreachable', 'timeout', 'answer_lost'] as const;
export type ConnectionFailureReason = (typeof CONNECTION_FAILURE_REASONS)[number];

/** How calls through a connection have gone lately, as the payments replica that answered saw them. */
export class ConnectionHealthView {
  @ApiProperty({
    enum: CIRCUIT_STATES,
    description: 'open: calls failed repeatedly; routing tries the other connections first until a trial call succeeds',
  })
  circuit: CircuitState;
  @ApiProperty({ nullable: true, type: String }) lastSuccessAt: string | null;
  @ApiProperty({ nullable: true, type: String }) lastFailureAt: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    enum: CONNECTION_FAILURE_REASONS,
    description:
      'Why the last failed call failed: unreachable (not sent, or the connector failed), timeout (no answer in ' +
      'time), answer_lost (sent, its answer lost); null when none failed',
  })
  lastFailureReason: ConnectionFailureReason | null;
  @ApiProperty({ description: 'Share of the recent calls (at most the last 100) that failed, from 0 to 1' })
  errorRate: number;
  @ApiProperty({ description: 'How many recent calls errorRate is computed over' }) recentCalls: number;
}

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

  @ApiPropertyOptional({
    type: ConnectionCredentialsRequest,
    description:
      'Required for adyen (apiKey, merchantAccount, hmacKey) and stripe (apiKey, webhookSecret) when the ' +
      'connection is created; on a replacement, absent keeps the stored ones and present replaces them all. ' +
      'The simulator (sandbox) takes none.',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => ConnectionCredentialsRequest)
  credentials?: ConnectionCredentialsRequest;

  @ApiPropertyOptional({
    description:
      "Where the provider's API answers (an Adyen live-prefix URL such as " +
      'https://1797a841fbb37ca7-AdyenDemo-checkout-live.adyenpayments.com/checkout, a local double in tests); absent: the ' +
      "provider's test endpoint for a sandbox connection, its live one for production. https (http only to a " +
      'loopback address outside a production deployment)',
  })
  @IsOptional()
  @IsUrl(
    { protocols: ['https', 'http'], require_protocol: true, require_tld: false },
    { message: 'endpoint must be an https URL' },
  )
  endpoint?: string;

  @ApiPropertyOptional({
    description:
      'Must be true to make the simulator (acquirer sandbox) a production connection, for the platform’s own ' +
      'tests; refused by a NODE_ENV=production deployment',
  })
  @IsOptional()
  @IsBoolean()
  allowSimulator?: boolean;
}

export class ConnectionResponse {
  @ApiProperty({ description: 'Also the {connectionId} of the provider webhook URL' }) id: string;
  @ApiProperty() connectionCode: string;
  @ApiProperty() connectionName: string;
  @ApiProperty({ enum: ACQUIRERS }) acquirer: string;
  @ApiProperty({ enum: ENVIRONMENTS }) environment: string;
  @ApiProperty({ type: [String] }) currencies: string[];
  @ApiProperty({ enum: PAYMENT_METHODS, isArray: true }) methods: string[];
  @ApiProperty() priority: number;
  @ApiProperty({ description: 'The built-in default (sandbox) connection every merchant gets' }) isDefault: boolean;
  @ApiPropertyOptional({ description: 'Set only when the connection names one' }) endpoint?: string;
  @ApiPropertyOptional({ type: ConnectionCredentialsView, description: 'Absent for the simulator' })
  credentials?: ConnectionCredentialsView;
  @ApiProperty({ type: ConnectionHealthView }) health: ConnectionHealthView;
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
