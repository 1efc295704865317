import { Inject, Injectable } from '@nestjs/common';
import { generateSecret, generateURI, verifySync } from 'otplib';
import { Cipher, Sealed } from '@app/cipher';
import { Clock } from '@app/clock';
import { DashboardUser, DashboardUsersRepository } from './dashboard-users.repository';

export const TOTP_CIPHER = Symbol('TOTP_CIPHER');
const ISSUER = 'Payments dashboard';
/** One 30-second step either side: an authenticator whose clock is a little off still works. */
const TOLERANCE_SECONDS = 30;

/**
 * TOTP (RFC 6238, through otplib) as the second factor of dashboard owners. The secret is sealed at rest with
 * the gateway's secret keys (GATEWAY_SECRET_KEYS) and bound to its user; a code is accepted once.
 */
@Injectable()
export class TotpService {
  constructor(
    private readonly users: DashboardUsersRepository,
    private readonly clock: Clock,
    @Inject(TOTP_CIPHER) private readonly cipher: Cipher,
  ) {}

  /** A new secret for the user: sealed for storage, and what the authenticator app is given. */
  newSecret(user: { id: string; email: string }): { sealed: Sealed; secret: string; otpauthUrl: string } {
    const secret = generateSecret();
    return {
      sealed: this.cipher.seal(secret, contextOf(user.id)),
      secret,
      otpauthUrl: generateURI({ issuer: ISSUER, label: user.email, secret }),
    };
  }

  /** The time step a code matches now for this sealed secret of the user, or null for a wrong code. */
  stepOf(sealed: Sealed, userId: string, code: string): number | null {
    if (!/^\d{6}$/.test(code)) return null;
    const result = verifySync({
      secret: this.cipher.open(sealed, contextOf(userId)),
      token: code,
      epoch: Math.floor(this.clock.now().getTime() / 1000),
      epochTolerance: TOLERANCE_SECONDS,
    });
    // The TOTP strategy (otplib's default) answers the time step the code matched.
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  }

  /** Whether the code is right for the user's active secret now (and not used before); marks it used. */
  async accept(user: DashboardUser, code: string): Promise<boolean> {
    if (!user.totpEnabled || !user.totp) return false;
    const step = this.stepOf(user.totp, user.id, code);
    return step !== null && this.users.useTotpStep(user.id, step);
  }
}

const contextOf = (userId: string): string => `dashboard-totp:${userId}`;
