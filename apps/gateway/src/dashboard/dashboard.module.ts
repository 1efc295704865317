import { Module } from '@nestjs/common';
import { AccountsModule } from '../auth/accounts.module';
import { AuditModule } from '../audit/audit.module';
import { MailModule } from '../mail/mail.module';
import { SandboxClockModule } from '../sandbox/sandbox-clock.module';
import { DashboardApp } from './dashboard-app';
import { DashboardConnectionsController } from './dashboard-connections.controller';
import { DashboardKeysController } from './dashboard-keys.controller';
import { DashboardPruneLoop } from './dashboard-prune.loop';
import { DashboardSessionController } from './dashboard-session.controller';
import { DashboardSessionsModule } from './dashboard-sessions.module';
import { DashboardPasswordResetController, DashboardTeamController } from './dashboard-team.controller';
import { DashboardTeamRepository } from './dashboard-team.repository';
import { DashboardTeamService } from './dashboard-team.service';
import { DashboardTotpController } from './dashboard-totp.controller';
import { DashboardUsersService } from './dashboard-users.service';
import { DashboardSessionGuard } from './session.guard';
import { DashboardSpaController } from './spa.controller';
import { TotpSettingsService } from './totp-settings.service';

/**
 * The merchant dashboard on the public server: its page (the SPA), sign-in and sessions, TOTP, API keys and
 * team routes, the merchant's connections (forwarded to payments). DashboardUsersService is exported for the operators' routes (DashboardOperatorsModule).
 */
@Module({
  imports: [DashboardSessionsModule, MailModule, AuditModule, AccountsModule, SandboxClockModule],
  controllers: [
    DashboardSessionController,
    DashboardTotpController,
    DashboardKeysController,
    DashboardTeamController,
    DashboardPasswordResetController,
    DashboardConnectionsController,
    DashboardSpaController,
  ],
  providers: [
    DashboardUsersService,
    DashboardTeamRepository,
    DashboardTeamService,
    TotpSettingsService,
    DashboardSessionGuard,
    DashboardPruneLoop,
    { provide: DashboardApp, useFactory: () => new DashboardApp() },
  ],
  exports: [DashboardUsersService],
})
export class DashboardModule {}
