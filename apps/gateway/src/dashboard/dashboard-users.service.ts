import { Inject, Injectable } from '@nestjs/common';
import { Clock, uuidv7 } from '@app/clock';
import { DomainError } from '@app/errors';
import type { Role } from '../auth/permission';
import { DASHBOARD_OPTIONS, DashboardOptions, INVITATION_TTL_MS } from './dashboard-options';
import { DashboardUsersRepository, Membership } from './dashboard-users.repository';
import { hashPassword } from './secrets';
import { newToken, tokenHash } from '../auth/tokens';
import { invitationMail } from '../mail/mail-templates';
import { Mailer, MailOutcome } from '../mail/mailer';

export interface InvitedUser {
  id: string;
  email: string;
  memberships: Membership[];
  /** `<base>/dashboard/#/invite/<token>`: the token travels in the fragment, which no server or log sees. */
  inviteUrl: string;
  inviteExpiresAt: string;
  /** The invitation email: sent to the SMTP server, failed, or not sent because mail is off (docs/mail.md). */
  mail: MailOutcome;
}

export interface UserView {
  id: string;
  email: string;
  memberships: Membership[];
  passwordSet: boolean;
  totpEnabled: boolean;
  createdAt: string;
}

/** Inviting, listing and removing dashboard users (the admin API), and accepting an invitation. */
@Injectable()
export class DashboardUsersService {
  constructor(
    private readonly users: DashboardUsersRepository,
    private readonly clock: Clock,
    private readonly mailer: Mailer,
    @Inject(DASHBOARD_OPTIONS) private readonly options: DashboardOptions,
  ) {}

  async invite(email: string, memberships: { merchantCode: string; role: Role }[]): Promise<InvitedUser> {
    const codes = memberships.map((m) => m.merchantCode);
    if (new Set(codes).size !== codes.length) {
      throw DomainError.validation('memberships must name each merchant once', 'memberships');
    }
    const now = this.clock.now();
    const id = uuidv7();
    const token = newToken();
    const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
    const normalized = normalizeEmail(email);
    await this.users.transaction(async (m) => {
      if (!(await this.users.insertUser(m, { id, email: normalized, createdAt: now }))) {
        throw new DomainError('INVALID_STATE', 'A dashboard user with this email exists', 'email');
      }
      const unknown = await this.users.insertMemberships(m, id, memberships);
      if (unknown.length) throw new DomainError('NOT_FOUND', `No such merchant: ${unknown.join(', ')}`, 'memberships');
      await this.users.insertInvitation(m, { tokenHash: tokenHash(token), userId: id, expiresAt, createdAt: now });
    });
    const granted = await this.users.memberships(id);
    const inviteUrl = `${this.options.publicBaseUrl}/dashboard/#/invite/${token}`;
    // After the commit: the token lives only in this answer and the email, never in a row or an outbox.
    const mail = await this.mailer.send(
      normalized,
      invitationMail({
        merchantNames: granted.map((g) => g.merchantName),
        url: inviteUrl,
        validForMs: INVITATION_TTL_MS,
      }),
    );
    return { id, email: normalized, memberships: granted, inviteUrl, inviteExpiresAt: expiresAt.toISOString(), mail };
  }

  /** Sets the invited user's password: once per invitation, within 72 hours, else 404 NOT_FOUND. */
  async accept(token: string, password: string): Promise<{ email: string }> {
    const hash = tokenHash(token);
    // The invitation first: an unknown token costs one indexed lookup, never argon2's memory and time.
    if (!(await this.users.invitationOpen(hash, this.clock.now()))) throw noSuchInvitation();
    const passwordHash = await hashPassword(password);
    // Used in one statement that checks again: of two racing accepts, one sets the password.
    const email = await this.users.acceptInvitation(hash, passwordHash, this.clock.now());
    if (!email) throw noSuchInvitation();
    return { email };
  }

  async list(): Promise<UserView[]> {
    return (await this.users.list()).map((u) => ({
      id: u.id,
      email: u.email,
      memberships: u.memberships,
      passwordSet: u.passwordHash !== null,
      totpEnabled: u.totpEnabled,
      createdAt: u.createdAt.toISOString(),
    }));
  }

  /** Removes the user with its memberships, invitations and sessions: its open sessions end at once. */
  async remove(id: string): Promise<void> {
    if (!(await this.users.delete(id))) throw DomainError.notFound('dashboard user', 'id');
  }
}

const noSuchInvitation = () =>
  new DomainError('NOT_FOUND', 'No such invitation, or it was used or has expired', 'token');

/** Emails compare case-insensitively: one person, one account, however the address is typed. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();
