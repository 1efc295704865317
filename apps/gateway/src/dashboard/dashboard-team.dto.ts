import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsIn, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { TextLimits } from '@app/contracts';
import { Role, ROLES } from '../auth/permission';
import { PASSWORD_MAX, PASSWORD_MIN } from './secrets';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

@TextLimits()
export class TeamQuery {
  @ApiProperty({ example: 'acme' }) @IsString() merchantCode: string;
}

@TextLimits()
export class TeamInviteRequest {
  @ApiProperty({ example: 'acme' }) @IsString() merchantCode: string;
  @ApiProperty({ example: 'ana@acme.example' }) @IsEmail() email: string;
  @ApiProperty({ enum: ROLES }) @IsIn(ROLES) role: Role;
}

@TextLimits()
export class TeamRoleRequest {
  @ApiProperty({ example: 'acme' }) @IsString() merchantCode: string;
  @ApiProperty({ enum: ROLES }) @IsIn(ROLES) role: Role;
}

export class TeamMemberResponse {
  @ApiProperty() id: string;
  @ApiProperty({ example: 'ana@acme.example' }) email: string;
  @ApiProperty({ enum: ROLES }) role: Role;
  @ApiProperty({ description: 'false until the invitation is accepted' }) passwordSet: boolean;
  @ApiProperty() totpEnabled: boolean;
  @ApiProperty() createdAt: string;
}

export class InvitedMemberResponse extends TeamMemberResponse {
  @ApiProperty({
    enum: ['sent', 'failed', 'off', 'not_needed'],
    description:
      'The invitation email: sent, failed or off (docs/mail.md); `not_needed` when the person had an account ' +
      'already and was only added to this merchant',
  })
  mail: 'sent' | 'failed' | 'off' | 'not_needed';
}

@TextLimits()
export class PasswordResetRequest {
  @ApiProperty({ example: 'ana@acme.example' }) @IsString() email: string;
}

@TextLimits()
export class PasswordResetConfirmRequest {
  @ApiProperty({
    description: 'The token from the reset link (the part after `#/reset/`)',
    example: 'q9Vd3Xb7mN2kL5pR8sT1wY4zA6cE0gH3jK7nP2rU5xZ',
  })
  @IsString()
  @Matches(TOKEN, { message: 'token must be the token of a reset link' })
  token: string;

  @ApiProperty({ example: 'correct horse battery staple', minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX })
  @IsString()
  @MinLength(PASSWORD_MIN, { message: `password must be at least ${PASSWORD_MIN} characters` })
  @MaxLength(PASSWORD_MAX)
  password: string;
}
