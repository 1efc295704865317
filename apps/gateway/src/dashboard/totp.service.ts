import { Inject, Injectable } from '@nestjs/common';
import { generateSecret, generateURI, verifySync } from 'otplib';
import { Cipher } from '@app/cipher';
import { Clock } from '@app/clock';
import { DomainError } from '@app/errors';
import { DashboardUser, DashboardUsersRepository } from './dashboard-users.repository';

export const TOTP_CIPHER = Symbol('TOTP_CIPHER');
const ISSUER = 'Payments dashboard';
/** One 30-second step either side: an authenticator whose clock is a little off still works. */
const TOLERANCE_SECONDS = 30;

/**
 * TOTP (RFC 6238, through otplib) as the second factor of dashboard owners. The secret is sealed at rest with
 * the gateway's secret keys (WEBHOOK_SECRET_KEYS) and bound to its user; a code is accepted once.
 */
@Injectable()
export class TotpService {
  constructor(
    private readonly users: DashboardUsersRepository,
    private readonly clock: Clock,
    @Inject(TOTP_CIPHER) private readonly cipher: Cipher,
  ) {}

  /** A new secret for the user (replacing an unconfirmed or confirmed one; TOTP is off until confirmed). */
  async enroll(user: { id: string; email: string }): Promise<{ secret: string; otpauthUrl: string }> {
    const secret = generateSecret();
    await this.users.setTotpSecret(user.id, this.cipher.seal(secret, contextOf(user.id)));
    return { secret, otpauthUrl: generateURI({ issuer: ISSUER, label: user.email, secret }) };
  }

  /** Turns TOTP on with a first good code; 400 VALIDATION_FAILED for a wrong one or without an enrolment. */
  async confirm(userId: string, code: string): Promise<void> {
    const user = await this.users.findById(userId);
    if (!user?.totp) throw DomainError.invalidState('Start the TOTP enrolment first');
    if (!(await this.accept(user, code, true))) throw DomainError.validation('The code is not right', 'code');
  }

  /** Whether the code is right for the user now (and not used before); marks it used. */
  async accept(user: DashboardUser, code: string, enable = false): Promise<boolean> {
    if (!user.totp || !/^\d{6}$/.test(code)) return false;
    const secret = this.cipher.open(user.totp, contextOf(user.id));
    const result = verifySync({
      secret,
      token: code,
      epoch: Math.floor(this.clock.now().getTime() / 1000),
      epochTolerance: TOLERANCE_SECONDS,
    });
    // The TOTP strategy (otplib's default) answers the time step the code matched.
    if (!result.valid || !('timeStep' in result)) return false;
    return this.users.useTotpStep(user.id, result.timeStep, enable);
  }
}

const contextOf = (userId: string): string => `dashboard-totp:${userId}`;
