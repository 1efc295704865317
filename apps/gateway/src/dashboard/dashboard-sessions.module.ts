import { Module } from '@nestjs/common';
import { Cipher } from '@app/cipher';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { gatewayKeyring } from '../secret-keys';
import { DASHBOARD_OPTIONS, dashboardOptionsOf } from './dashboard-options';
import { DashboardSessionsRepository } from './dashboard-sessions.repository';
import { DashboardSessionsService } from './dashboard-sessions.service';
import { DashboardUsersRepository } from './dashboard-users.repository';
import { SessionPrincipals } from './session-principal';
import { TOTP_CIPHER, TotpService } from './totp.service';

/**
 * Dashboard users' sign-in: users, sessions and TOTP (the `dashboard_users` and `dashboard_sessions` tables),
 * and SessionPrincipals, the gateway's CredentialResolver (the session cookie as a caller of the REST API).
 * To change how a dashboard session is checked, start at session-principal.ts and dashboard-sessions.service.ts.
 */
@Module({
  providers: [
    { provide: DASHBOARD_OPTIONS, inject: [GATEWAY_CONFIG], useFactory: dashboardOptionsOf },
    {
      provide: TOTP_CIPHER,
      inject: [GATEWAY_CONFIG],
      useFactory: (c: GatewayConfig) => new Cipher(gatewayKeyring(c)),
    },
    DashboardUsersRepository,
    DashboardSessionsRepository,
    DashboardSessionsService,
    TotpService,
    SessionPrincipals,
  ],
  exports: [
    DASHBOARD_OPTIONS,
    DashboardUsersRepository,
    DashboardSessionsRepository,
    DashboardSessionsService,
    TotpService,
    SessionPrincipals,
  ],
})
export class DashboardSessionsModule {}
