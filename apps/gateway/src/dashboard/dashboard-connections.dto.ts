import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString } from 'class-validator';
import { ACQUIRERS, ConnectionHealthView, ENVIRONMENTS, Environment, TextLimits } from '@app/contracts';

@TextLimits()
export class DashboardConnectionsQuery {
  @ApiProperty({ example: 'acme' }) @IsString() merchantCode: string;
  @ApiProperty({ enum: ENVIRONMENTS }) @IsIn(ENVIRONMENTS) environment: Environment;
}

/** The last four characters of each credential a connection holds; never a value. */
export class DashboardConnectionCredentials {
  @ApiPropertyOptional({ example: 'x9Qa' }) apiKeyLast4?: string;
  @ApiPropertyOptional({ example: 'ECOM' }) merchantAccountLast4?: string;
  @ApiPropertyOptional() hmacKeyLast4?: string;
  @ApiPropertyOptional() webhookSecretLast4?: string;
  @ApiProperty({ description: 'When they were last set' }) updatedAt: string;
}

/** A routing connection as the merchant's team sees it: what it is, which credentials it holds, how it is doing. */
export class DashboardConnectionResponse {
  @ApiProperty() id: string;
  @ApiProperty({ example: 'adyen-eu' }) connectionCode: string;
  @ApiProperty({ example: 'Adyen Europe' }) connectionName: string;
  @ApiProperty({ enum: ACQUIRERS, description: 'The connector: sandbox (the simulator), adyen or stripe' })
  acquirer: string;
  @ApiProperty({ enum: ENVIRONMENTS }) environment: string;
  @ApiProperty({ description: 'Lower numbers are tried first; the list is in this order' }) priority: number;
  @ApiProperty({ type: [String], description: 'Empty: every currency' }) currencies: string[];
  @ApiProperty({ type: [String], description: 'Empty: every method' }) methods: string[];
  @ApiProperty({ description: 'The built-in sandbox connection every merchant gets' }) isDefault: boolean;
  @ApiPropertyOptional({ type: DashboardConnectionCredentials, description: 'Absent for the simulator' })
  credentials?: DashboardConnectionCredentials;
  @ApiProperty({ type: ConnectionHealthView }) health: ConnectionHealthView;
}
