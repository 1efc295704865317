import { Provider } from '@nestjs/common';
import { Cipher, WebhookSecretCipher } from '@app/cipher';
import { GatewayConfig } from '../config';
import { MAIL_OPTIONS, mailOptionsOf } from '../mail/mail-options';
import { MailSendsRepository } from '../mail/mail-sends.repository';
import { Mailer } from '../mail/mailer';
import { DashboardAuditRepository } from './dashboard-audit.repository';
import { DashboardKeysController } from './dashboard-keys.controller';
import { DASHBOARD_OPTIONS, dashboardOptionsOf } from './dashboard-options';
import { DashboardPruneLoop } from './dashboard-prune.loop';
import { DashboardSessionController } from './dashboard-session.controller';
import { DashboardSessionsRepository } from './dashboard-sessions.repository';
import { DashboardSessionsService } from './dashboard-sessions.service';
import { DashboardPasswordResetController, DashboardTeamController } from './dashboard-team.controller';
import { DashboardTeamRepository } from './dashboard-team.repository';
import { DashboardTeamService } from './dashboard-team.service';
import { DashboardTotpController } from './dashboard-totp.controller';
import { DashboardUsersRepository } from './dashboard-users.repository';
import { DashboardUsersService } from './dashboard-users.service';
import { SessionPrincipals } from './session-principal';
import { DashboardSessionGuard } from './session.guard';
import { TotpSettingsService } from './totp-settings.service';
import { TOTP_CIPHER, TotpService } from './totp.service';

/** The dashboard's routes on the public server (the SPA itself is served beside them). */
export const dashboardControllers = [
  DashboardSessionController,
  DashboardTotpController,
  DashboardKeysController,
  DashboardTeamController,
  DashboardPasswordResetController,
];

export const dashboardProviders = (config: GatewayConfig): Provider[] => [
  { provide: DASHBOARD_OPTIONS, useValue: dashboardOptionsOf(config) },
  { provide: TOTP_CIPHER, useValue: new Cipher(WebhookSecretCipher.keyringOf(config)) },
  { provide: MAIL_OPTIONS, useValue: mailOptionsOf(config) },
  MailSendsRepository,
  Mailer,
  DashboardUsersRepository,
  DashboardSessionsRepository,
  DashboardUsersService,
  DashboardTeamRepository,
  DashboardTeamService,
  DashboardSessionsService,
  TotpService,
  TotpSettingsService,
  DashboardAuditRepository,
  SessionPrincipals,
  DashboardSessionGuard,
  DashboardPruneLoop,
];
