import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '@app/clock';
import { DomainError } from '@app/errors';
import { AuditEvent, AuditEventType, DashboardAuditRepository } from '../audit/dashboard-audit.repository';
import { DASHBOARD_OPTIONS, DashboardOptions } from './dashboard-options';
import { accountLocked } from './dashboard-sessions.service';
import { DashboardSessionsRepository } from './dashboard-sessions.repository';
import { DashboardUser, DashboardUsersRepository } from './dashboard-users.repository';
import { passwordMatches } from './secrets';
import { TotpService } from './totp.service';

/** Who makes a change: the signed-in user, through which session, from which client address. */
export interface Actor {
  userId: string;
  sessionId: string;
  clientAddress: string;
}

/** A new secret must be confirmed within 10 minutes of its set-up. */
export const PENDING_TOTP_MS = 10 * 60_000;

/**
 * Changing the second factor (docs/dashboard.md, Second factor): enrolling, replacing and removing TOTP need
 * the password and, while TOTP is on, a current code; a new secret takes over only once a code from it is
 * confirmed, the active setting staying as it was until then; every change is an event of the user's audit
 * trail, written in the change's transaction.
 */
@Injectable()
export class TotpSettingsService {
  constructor(
    private readonly users: DashboardUsersRepository,
    private readonly attempts: DashboardSessionsRepository,
    private readonly audit: DashboardAuditRepository,
    private readonly totp: TotpService,
    private readonly clock: Clock,
    @Inject(DASHBOARD_OPTIONS) private readonly options: DashboardOptions,
  ) {}

  /** Sets up a new secret (a first one, or one to replace the active one), pending until confirmed. */
  async start(actor: Actor, password: string, code?: string): Promise<{ secret: string; otpauthUrl: string }> {
    const user = await this.reauthenticate(actor, password, code);
    const { sealed, secret, otpauthUrl } = this.totp.newSecret(user);
    await this.users.setPendingTotp(user.id, sealed, this.clock.now());
    return { secret, otpauthUrl };
  }

  /** A code from the pending secret makes it the active one: TOTP on (or on with the new secret). */
  async confirm(actor: Actor, code: string): Promise<void> {
    await this.users.transaction(async (m) => {
      const user = await this.users.lockUser(m, actor.userId);
      const pending = user?.totpPending;
      if (!user || !pending || this.clock.now().getTime() - pending.since.getTime() > PENDING_TOTP_MS) {
        throw DomainError.invalidState('Set up two-factor sign-in first (a set-up is good for 10 minutes)');
      }
      const step = this.totp.stepOf(pending.sealed, user.id, code);
      if (step === null) throw DomainError.validation('The code is not right', 'code');
      await this.users.activatePendingTotp(m, user.id, step);
      await this.record(m, actor, user.totpEnabled ? 'totp.replaced' : 'totp.enabled');
    });
  }

  /** TOTP off, with the password and a current code. */
  async remove(actor: Actor, password: string, code: string): Promise<void> {
    const user = await this.reauthenticate(actor, password, code);
    if (!user.totpEnabled) throw DomainError.invalidState('Two-factor sign-in is off');
    await this.users.transaction(async (m) => {
      await this.users.removeTotp(m, user.id);
      await this.record(m, actor, 'totp.disabled');
    });
  }

  /** The user's audit trail, newest first. */
  events(actor: Pick<Actor, 'userId'>): Promise<AuditEvent[]> {
    return this.audit.listOf(actor.userId);
  }

  /**
   * The first factor again, and the second while it is on. A wrong password or code counts toward the email's
   * sign-in lockout (429 ACCOUNT_LOCKED), so a session cannot be used to guess either.
   */
  private async reauthenticate(actor: Actor, password: string, code?: string): Promise<DashboardUser> {
    const user = await this.users.findById(actor.userId);
    if (!user) throw new DomainError('AUTH_INVALID', 'The dashboard session has ended; sign in again');
    const now = this.clock.now();
    const { lockoutWindowMs, lockoutFailures } = this.options;
    const attempt = await this.attempts.reserveAttempt(user.email, now, lockoutWindowMs, lockoutFailures);
    if ('lockedUntil' in attempt) throw accountLocked(attempt.lockedUntil, now);
    if (!(await passwordMatches(user.passwordHash, password))) {
      throw new DomainError('AUTH_INVALID', 'Wrong password', 'password');
    }
    if (user.totpEnabled) {
      if (!code) {
        await this.attempts.releaseAttempt(attempt.id);
        throw new DomainError('TOTP_REQUIRED', 'Enter the code from your authenticator app', 'code');
      }
      if (!(await this.totp.accept(user, code)))
        throw new DomainError('AUTH_INVALID', 'Wrong authenticator code', 'code');
    }
    await this.attempts.releaseAttempt(attempt.id);
    return user;
  }

  private record(m: Parameters<DashboardAuditRepository['record']>[0], actor: Actor, type: AuditEventType) {
    return this.audit.record(m, { ...actor, type, at: this.clock.now() });
  }
}
