import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Length, MinLength } from 'class-validator';
import type { Environment } from '../context';
import { TextLimits } from '../text-limits';
import { MerchantCodeField } from '../merchant-code';

export const CHALLENGE_OUTCOMES = ['authenticated', 'failed'] as const;
export type ChallengeOutcome = (typeof CHALLENGE_OUTCOMES)[number];

@TextLimits()
export class ResumeRequest {
  @ApiProperty({ description: 'actionRequired.sessionId of a pending_3ds or pending_action payment' })
  @IsString()
  @MinLength(1)
  sessionId: string;
}

export class ChallengeOutcomeRequest {
  @ApiProperty({ enum: CHALLENGE_OUTCOMES }) @IsIn(CHALLENGE_OUTCOMES) outcome: ChallengeOutcome;
}

@TextLimits()
export class SandboxChallengeRequest extends ChallengeOutcomeRequest {
  @MerchantCodeField() merchantCode?: string;
}

/** Command body of the sandbox and hosted-page challenge commands. */
export class CompleteChallengeCommand extends ChallengeOutcomeRequest {
  @IsString() @Length(1, 255) sessionId: string;
}

export class ChallengeOutcomeResponse {
  @ApiProperty() sessionId: string;
  @ApiProperty({ enum: CHALLENGE_OUTCOMES }) outcome: ChallengeOutcome;
}

export class SessionViewRequest {
  @IsString() @Length(1, 255) sessionId: string;
  /** The page asking: a 3DS session on the APM page (or the reverse) is NOT_FOUND. */
  @IsIn(['threeds', 'apm']) kind: 'threeds' | 'apm';
}

/** What a hosted page shows about a session (never card data). */
export interface SessionView {
  sessionId: string;
  kind: 'threeds' | 'apm';
  status: string;
  expired: boolean;
  environment: Environment;
  merchantCode: string;
  amount: { currency: string; value: number; exponent: number };
  expiresAt: string;
  /** Masked card of a 3DS challenge, e.g. 400000****3155. */
  maskedCard?: string;
  /** APM payment instructions. */
  actionType?: string;
  apm?: { qrCode?: string; barcode?: string; url?: string; expiresAt: string };
  /** A provider's 3-D Secure page the hosted page sends the shopper to (a redirect, or a form it posts). */
  providerAction?: { url: string; method: 'GET' | 'POST'; data?: Record<string, string> };
}

export class ActionRequiredView {
  @ApiProperty({ enum: ['threeds_challenge', 'redirect', 'qr_code', 'barcode'] }) type: string;
  @ApiProperty({ description: 'Where to send the cardholder' }) url: string;
  @ApiProperty() sessionId: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

export class ApmView {
  @ApiPropertyOptional({ description: 'Pix "copia e cola" payload (EMV BR Code)' }) qrCode?: string;
  @ApiPropertyOptional({ description: 'Boleto linha digitável (47 digits)' }) barcode?: string;
  @ApiPropertyOptional({ description: 'Where to send the payer (ACH bank authorization)' }) url?: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}
