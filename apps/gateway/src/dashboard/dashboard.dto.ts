import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsEmail,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ENVIRONMENTS, TextLimits } from '@app/contracts';
import { ROLES } from '../auth/permission';
import { PASSWORD_MAX, PASSWORD_MIN } from './secrets';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

@TextLimits()
export class AcceptInvitationRequest {
  @ApiProperty({
    example: 'q1Zk2rX3Yb4Wc5Vd6Ue7Tf8Sg9Rh0Qi1Pj2Ok3Nl4Mm',
    description: 'The token from the invitation link (the part after `#/invite/`)',
  })
  @IsString()
  @Matches(TOKEN, { message: 'token must be the token of an invitation link' })
  token: string;

  @ApiProperty({ example: 'correct horse battery staple', minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX })
  @IsString()
  @MinLength(PASSWORD_MIN, { message: `password must be at least ${PASSWORD_MIN} characters` })
  @MaxLength(PASSWORD_MAX)
  password: string;
}

export class AcceptedInvitationResponse {
  @ApiProperty({ example: 'ana@acme.example' }) email: string;
}

@TextLimits()
export class SignInRequest {
  @ApiProperty({ example: 'ana@acme.example' }) @IsString() email: string;
  @ApiProperty({ example: 'correct horse battery staple', maxLength: PASSWORD_MAX })
  @IsString()
  @MaxLength(PASSWORD_MAX)
  password: string;
  @ApiPropertyOptional({
    example: '123456',
    description: 'The authenticator app’s current code, for a user who turned TOTP on',
  })
  @IsOptional()
  @IsString()
  totpCode?: string;
}

export class SessionUserDto {
  @ApiProperty() id: string;
  @ApiProperty({ example: 'ana@acme.example' }) email: string;
  @ApiProperty() totpEnabled: boolean;
}

export class SessionMembershipDto {
  @ApiProperty({ example: 'acme' }) merchantCode: string;
  @ApiProperty({ example: 'Acme Inc.' }) merchantName: string;
  @ApiProperty({ enum: ROLES }) role: string;
}

export class SessionViewResponse {
  @ApiProperty({ type: SessionUserDto }) user: SessionUserDto;
  @ApiProperty({ type: [SessionMembershipDto] }) memberships: SessionMembershipDto[];
  @ApiProperty({ description: 'Send it as `X-CSRF-Token` on every change made with the session cookie' })
  csrfToken: string;
  @ApiProperty({ description: 'When the session ends unless used before (idle), or its absolute end if sooner' })
  expiresAt: string;
}

export class TotpEnrollmentResponse {
  @ApiProperty({ example: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', description: 'Base32, for typing into the app' })
  secret: string;
  @ApiProperty({ example: 'otpauth://totp/Payments%20dashboard:ana%40acme.example?secret=JBSWY3DPEHPK3PXP' })
  otpauthUrl: string;
}

const TOTP_CODE = /^\d{6}$/;
const TOTP_CODE_MESSAGE = 'code must be the 6 digits the authenticator app shows';

@TextLimits()
export class TotpSetupRequest {
  @ApiProperty({ example: 'correct horse battery staple', description: 'The user’s password', maxLength: PASSWORD_MAX })
  @IsString()
  @MaxLength(PASSWORD_MAX)
  password: string;

  @ApiPropertyOptional({
    example: '123456',
    description: 'While TOTP is on (replacing the secret): the current code from the authenticator app',
  })
  @IsOptional()
  @IsString()
  @Matches(TOTP_CODE, { message: TOTP_CODE_MESSAGE })
  code?: string;
}

@TextLimits()
export class TotpRemoveRequest {
  @ApiProperty({ example: 'correct horse battery staple', description: 'The user’s password', maxLength: PASSWORD_MAX })
  @IsString()
  @MaxLength(PASSWORD_MAX)
  password: string;

  @ApiProperty({ example: '123456', description: 'The current code from the authenticator app' })
  @IsString()
  @Matches(TOTP_CODE, { message: TOTP_CODE_MESSAGE })
  code: string;
}

export class AuditEventResponse {
  @ApiProperty() id: string;
  @ApiProperty({
    enum: ['totp.enabled', 'totp.replaced', 'totp.disabled'],
    description:
      'totp.enabled: two-factor sign-in turned on; totp.replaced: a new secret took over; totp.disabled: turned off',
  })
  type: string;
  @ApiProperty({ nullable: true, type: String, description: 'The session that made the change' })
  sessionId: string | null;
  @ApiProperty({ nullable: true, type: String, example: '203.0.113.7', description: 'Where the change came from' })
  clientAddress: string | null;
  @ApiProperty() createdAt: string;
}

export class TotpConfirmRequest {
  @ApiProperty({ example: '123456' })
  @IsString()
  @Matches(TOTP_CODE, { message: TOTP_CODE_MESSAGE })
  code: string;
}

@TextLimits()
export class DashboardKeysQuery {
  @ApiProperty({ example: 'acme' }) @IsString() merchantCode: string;
  @ApiProperty({ enum: ENVIRONMENTS }) @IsIn(ENVIRONMENTS) environment: 'production' | 'sandbox';
}

@TextLimits()
export class CreateDashboardKeyRequest {
  @ApiProperty({ example: 'Shop server' }) @IsString() @MinLength(1) name: string;
  @ApiProperty({ enum: ['private', 'public'] }) @IsIn(['private', 'public']) type: 'private' | 'public';
  @ApiProperty({ enum: ENVIRONMENTS }) @IsIn(ENVIRONMENTS) environment: 'production' | 'sandbox';
  @ApiProperty({ example: 'acme' }) @IsString() merchantCode: string;
}

export class DashboardKeyResponse {
  @ApiProperty() id: string;
  @ApiProperty({ nullable: true, type: String, example: 'Shop server' }) name: string | null;
  @ApiProperty({ enum: ['private', 'public'] }) type: string;
  @ApiProperty({ enum: ENVIRONMENTS }) environment: string;
  @ApiProperty({ example: 'prv_sandbox_AbCd…', description: 'The start of the key, to recognize it by' })
  prefix: string;
  @ApiProperty() createdAt: string;
  @ApiProperty({ nullable: true, type: String }) revokedAt: string | null;
}

export class CreatedDashboardKeyResponse extends DashboardKeyResponse {
  @ApiProperty({ description: 'The key itself: shown only in this answer, stored only as a hash' }) key: string;
}

@TextLimits()
export class DashboardMembershipRequest {
  @ApiProperty({ example: 'acme' }) @IsString() merchantCode: string;
  @ApiProperty({ enum: ROLES }) @IsIn(ROLES) role: 'owner' | 'developer' | 'support';
}

@TextLimits()
export class InviteDashboardUserRequest {
  @ApiProperty({ example: 'ana@acme.example' }) @IsEmail() email: string;
  @ApiProperty({ type: [DashboardMembershipRequest] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => DashboardMembershipRequest)
  memberships: DashboardMembershipRequest[];
}

export class DashboardUserMembershipDto extends SessionMembershipDto {
  @ApiProperty() merchantId: number;
}

export class InvitedDashboardUserResponse {
  @ApiProperty() id: string;
  @ApiProperty({ example: 'ana@acme.example' }) email: string;
  @ApiProperty({ type: [DashboardUserMembershipDto] }) memberships: DashboardUserMembershipDto[];
  @ApiProperty({
    example: 'https://pay.example.com/dashboard/#/invite/q1Zk2rX3Yb4Wc5Vd6Ue7Tf8Sg9Rh0Qi1Pj2Ok3Nl4Mm',
    description: 'The one-time link that sets the password, also emailed to the user (shown only here)',
  })
  inviteUrl: string;
  @ApiProperty() inviteExpiresAt: string;
  @ApiProperty({
    enum: ['sent', 'failed', 'off'],
    description:
      'The invitation email: handed to the SMTP server, refused or unreachable, or not sent because mail is off ' +
      '(SMTP_HOST unset, docs/mail.md); unless `sent`, give `inviteUrl` to the user yourself',
  })
  mail: 'sent' | 'failed' | 'off';
}

export class DashboardUserResponse {
  @ApiProperty() id: string;
  @ApiProperty({ example: 'ana@acme.example' }) email: string;
  @ApiProperty({ type: [DashboardUserMembershipDto] }) memberships: DashboardUserMembershipDto[];
  @ApiProperty({ description: 'Whether the invitation was accepted' }) passwordSet: boolean;
  @ApiProperty() totpEnabled: boolean;
  @ApiProperty() createdAt: string;
}
