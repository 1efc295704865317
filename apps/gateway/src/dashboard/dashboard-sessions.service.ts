import { Inject, Injectable } from '@nestjs/common';
import { Clock, uuidv7 } from '@app/clock';
import { DomainError } from '@app/errors';
import { DASHBOARD_OPTIONS, DashboardOptions } from './dashboard-options';
import { DashboardSessionsRepository } from './dashboard-sessions.repository';
import { DashboardUsersRepository, Membership } from './dashboard-users.repository';
import { normalizeEmail } from './dashboard-users.service';
import { csrfTokenOf, passwordMatches } from './secrets';
import { newToken, tokenHash } from '../auth/tokens';
import { TotpService } from './totp.service';

/** A signed-in dashboard user, as a request authenticated by its session cookie sees it. */
export interface DashboardSession {
  id: string;
  /** The cookie's token: needed to derive the CSRF token, never stored or logged. */
  token: string;
  user: { id: string; email: string; totpEnabled: boolean };
  memberships: Membership[];
  csrfToken: string;
  /** When the session ends unless used again before (idle expiry), or its absolute expiry if sooner. */
  expiresAt: Date;
}

/** What the session routes answer (contract: SessionView). */
export interface SessionView {
  user: { id: string; email: string; totpEnabled: boolean };
  memberships: Omit<Membership, 'merchantId'>[];
  csrfToken: string;
  expiresAt: string;
}

const WRONG_CREDENTIALS = 'Wrong email or password';

/** Signing in and out of the dashboard, and the session behind a cookie (docs/dashboard.md). */
@Injectable()
export class DashboardSessionsService {
  constructor(
    private readonly sessions: DashboardSessionsRepository,
    private readonly users: DashboardUsersRepository,
    private readonly totp: TotpService,
    private readonly clock: Clock,
    @Inject(DASHBOARD_OPTIONS) private readonly options: DashboardOptions,
  ) {}

  /**
   * A new session for the right email and password (and TOTP code, for a user who turned it on). Every wrong
   * answer is the same 401 AUTH_INVALID whether the email exists or not, and counts toward the email's lockout
   * (429 ACCOUNT_LOCKED), which unknown emails get alike.
   */
  async signIn(email: string, password: string, totpCode?: string): Promise<DashboardSession> {
    const normalized = normalizeEmail(email);
    const { lockoutFailures, lockoutWindowMs } = this.options;
    const attempt = await this.sessions.reserveAttempt(normalized, this.clock.now(), lockoutWindowMs, lockoutFailures);
    if ('lockedUntil' in attempt) throw accountLocked(attempt.lockedUntil, this.clock.now());
    const user = await this.users.findByEmail(normalized);
    if (!(await passwordMatches(user?.passwordHash ?? null, password)) || !user) {
      throw new DomainError('AUTH_INVALID', WRONG_CREDENTIALS);
    }
    if (user.totpEnabled) {
      if (!totpCode) {
        // Nothing was guessed: the password was right and no code was tried.
        await this.sessions.releaseAttempt(attempt.id);
        throw new DomainError('TOTP_REQUIRED', 'Enter the code from your authenticator app', 'totpCode');
      }
      if (!(await this.totp.accept(user, totpCode))) {
        throw new DomainError('AUTH_INVALID', 'Wrong authenticator code', 'totpCode');
      }
    }
    await this.sessions.clearAttempts(normalized);
    const token = newToken();
    const now = this.clock.now();
    await this.sessions.insert({
      id: uuidv7(),
      tokenHash: tokenHash(token),
      userId: user.id,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + this.options.maxAgeMs),
    });
    const session = await this.authenticate(token);
    if (!session) throw new Error('a session just made was not found');
    return session;
  }

  /** The live session of a cookie's token (its idle expiry moved on), or null when it has ended. */
  async authenticate(token: string): Promise<DashboardSession | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
    const now = this.clock.now();
    const stored = await this.sessions.use(tokenHash(token), now, this.options.idleMs);
    if (!stored) return null;
    const user = await this.users.findById(stored.userId);
    if (!user) return null;
    const idleUntil = stored.lastSeenAt.getTime() + this.options.idleMs;
    return {
      id: stored.id,
      token,
      user: { id: user.id, email: user.email, totpEnabled: user.totpEnabled },
      memberships: await this.users.memberships(user.id),
      csrfToken: csrfTokenOf(token),
      expiresAt: new Date(Math.min(idleUntil, stored.expiresAt.getTime())),
    };
  }

  signOut(session: DashboardSession): Promise<void> {
    return this.sessions.end(session.id, this.clock.now());
  }

  signOutEverywhere(session: DashboardSession): Promise<void> {
    return this.sessions.endAllOf(session.user.id, this.clock.now());
  }
}

/** 429 ACCOUNT_LOCKED until the email's oldest failure in the window leaves it. */
export function accountLocked(lockedUntil: Date, now: Date): DomainError {
  const seconds = Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000));
  return new DomainError('ACCOUNT_LOCKED', 'Too many failed sign-ins for this email; try again later', 'email', {
    retryAfter: seconds,
  });
}

export const sessionView = (s: DashboardSession): SessionView => ({
  user: s.user,
  memberships: s.memberships.map(({ merchantCode, merchantName, role }) => ({ merchantCode, merchantName, role })),
  csrfToken: s.csrfToken,
  expiresAt: s.expiresAt.toISOString(),
});
