import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { Clock, uuidv7 } from '@app/clock';
import { DomainError } from '@app/errors';
import { LOGGER } from '@app/observability';
import type { Role } from '../auth/permission';
import { invitationMail, passwordResetMail } from '../mail/mail-templates';
import { Mailer } from '../mail/mailer';
import { AuditChange, DashboardAuditRepository } from '../audit/dashboard-audit.repository';
import { DASHBOARD_OPTIONS, DashboardOptions, INVITATION_TTL_MS } from './dashboard-options';
import type { DashboardSession } from './dashboard-sessions.service';
import { DashboardTeamRepository, TeamMember } from './dashboard-team.repository';
import { DashboardUsersRepository } from './dashboard-users.repository';
import { normalizeEmail } from './dashboard-users.service';
import { hashPassword } from './secrets';
import { newToken, tokenHash } from '../auth/tokens';

/** A reset link is good for an hour. */
export const RESET_TTL_MS = 3600_000;
/** At most this many reset emails per user per hour: asking again and again floods nobody's inbox. */
export const RESETS_PER_HOUR = 3;

export type MemberView = Omit<TeamMember, 'createdAt'> & { createdAt: string };
export type InvitedMember = MemberView & { mail: 'sent' | 'failed' | 'off' | 'not_needed' };

/** Who did it, from where: the audit log's actor for a change an owner makes in the dashboard. */
export interface TeamActor {
  session: DashboardSession;
  clientAddress: string;
}

/**
 * A merchant's team, run by its owners in the dashboard (docs/dashboard.md, Team): invite by email, change a
 * role, remove someone; and forgotten passwords. Each team change is written to the audit log in its transaction.
 */
@Injectable()
export class DashboardTeamService {
  constructor(
    private readonly team: DashboardTeamRepository,
    private readonly users: DashboardUsersRepository,
    private readonly audit: DashboardAuditRepository,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    @Inject(DASHBOARD_OPTIONS) private readonly options: DashboardOptions,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async members(merchantCode: string): Promise<MemberView[]> {
    return (await this.team.members(merchantCode)).map(view);
  }

  /**
   * Adds the person to the merchant with `role`. Someone new gets an account and an invitation email (the link
   * sets the password, once, within 72 hours); someone with an account already is only added.
   */
  async invite(actor: TeamActor, merchantCode: string, email: string, role: Role): Promise<InvitedMember> {
    const normalized = normalizeEmail(email);
    const now = this.clock.now();
    const token = newToken();
    const created = await this.team.transaction(async (m) => {
      const existing = await this.users.findByEmail(normalized);
      const id = existing?.id ?? uuidv7();
      if (!existing) {
        if (!(await this.users.insertUser(m, { id, email: normalized, createdAt: now }))) {
          throw new DomainError('INVALID_STATE', 'Someone just invited this email; reload the team', 'email');
        }
        const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
        await this.users.insertInvitation(m, { tokenHash: tokenHash(token), userId: id, expiresAt, createdAt: now });
      }
      if (!(await this.team.addMembership(m, id, merchantCode, role))) {
        throw new DomainError('INVALID_STATE', `${normalized} is a member of ${merchantCode} already`, 'email');
      }
      await this.audit.recordChange(
        this.change(actor, merchantCode, 'team.invited', id, { email: normalized, role }),
        m,
      );
      return !existing;
    });
    const member = (await this.team.members(merchantCode)).find((x) => x.email === normalized)!;
    if (!created) return { ...view(member), mail: 'not_needed' };
    const merchantName = actor.session.memberships.find((x) => x.merchantCode === merchantCode)?.merchantName;
    const url = `${this.options.publicBaseUrl}/dashboard/#/invite/${token}`;
    const mail = await this.mailer.send(
      normalized,
      invitationMail({ merchantNames: [merchantName ?? merchantCode], url, validForMs: INVITATION_TTL_MS }),
    );
    return { ...view(member), mail };
  }

  async changeRole(actor: TeamActor, merchantCode: string, userId: string, role: Role): Promise<MemberView> {
    await this.team.transaction(async (m) => {
      const members = await this.team.lockMembers(m, merchantCode);
      const member = members.find((x) => x.id === userId);
      if (!member) throw DomainError.notFound('team member', 'id');
      if (member.role === role) return;
      keepsAnOwner(members, userId, role);
      await this.team.setRole(m, userId, merchantCode, role);
      const detail = { email: member.email, role, previousRole: member.role };
      await this.audit.recordChange(this.change(actor, merchantCode, 'team.role_changed', userId, detail), m);
    });
    return view((await this.team.members(merchantCode)).find((x) => x.id === userId)!);
  }

  /** Removes the person from the merchant (and their account, when it was their last merchant). */
  async remove(actor: TeamActor, merchantCode: string, userId: string): Promise<void> {
    await this.team.transaction(async (m) => {
      const members = await this.team.lockMembers(m, merchantCode);
      const member = members.find((x) => x.id === userId);
      if (!member) throw DomainError.notFound('team member', 'id');
      keepsAnOwner(members, userId, null);
      await this.team.removeMembership(m, userId, merchantCode);
      const detail = { email: member.email, role: member.role };
      await this.audit.recordChange(this.change(actor, merchantCode, 'team.removed', userId, detail), m);
    });
  }

  /**
   * Emails a reset link to the user of this email, if there is one with a password, at most RESETS_PER_HOUR an
   * hour. The caller's answer is the same whatever happened, and comes before the email is sent, so neither
   * what it says nor how long it takes tells whether the email has an account.
   */
  async requestReset(email: string): Promise<void> {
    const user = await this.users.findByEmail(normalizeEmail(email));
    if (!user?.passwordHash) return;
    const now = this.clock.now();
    if ((await this.team.resetsSince(user.id, new Date(now.getTime() - 3600_000))) >= RESETS_PER_HOUR) return;
    const token = newToken();
    await this.team.insertReset({
      tokenHash: tokenHash(token),
      userId: user.id,
      expiresAt: new Date(now.getTime() + RESET_TTL_MS),
      createdAt: now,
    });
    const url = `${this.options.publicBaseUrl}/dashboard/#/reset/${token}`;
    void this.mailer
      .send(user.email, passwordResetMail({ url, validForMs: RESET_TTL_MS }))
      .catch((e: unknown) => this.logger.error({ err: e }, 'A password reset email was not recorded'));
  }

  /** Sets a new password from a reset link: once, within the hour, else 404 NOT_FOUND; every session ends. */
  async confirmReset(token: string, password: string, clientAddress: string): Promise<{ email: string }> {
    const hash = tokenHash(token);
    // The link first: an unknown token costs one indexed lookup, never argon2's memory and time.
    if (!(await this.team.resetOpen(hash, this.clock.now()))) throw noSuchReset();
    const passwordHash = await hashPassword(password);
    const now = this.clock.now();
    const user = await this.team.transaction(async (m) => {
      const used = await this.team.useReset(m, hash, passwordHash, now);
      if (!used) throw noSuchReset();
      await this.audit.record(m, { userId: used.id, type: 'password.reset', sessionId: null, clientAddress, at: now });
      return used;
    });
    return { email: user.email };
  }

  private change(
    actor: TeamActor,
    merchantCode: string,
    type: AuditChange['type'],
    target: string,
    detail: Record<string, unknown>,
  ): AuditChange {
    const { session } = actor;
    return {
      type,
      actor: { channel: 'dashboard', userId: session.user.id, email: session.user.email, sessionId: session.id },
      merchantCode,
      environment: null,
      target,
      detail,
      clientAddress: actor.clientAddress,
      at: this.clock.now(),
    };
  }
}

/** A merchant keeps at least one owner: 409 INVALID_STATE when this change would leave none. */
function keepsAnOwner(members: TeamMember[], userId: string, newRole: Role | null): void {
  const owners = members.filter((x) => x.role === 'owner' && !(x.id === userId && newRole !== 'owner'));
  if (owners.length === 0) {
    throw new DomainError('INVALID_STATE', 'A merchant keeps at least one owner: make someone else owner first');
  }
}

const view = (m: TeamMember): MemberView => ({ ...m, createdAt: m.createdAt.toISOString() });

const noSuchReset = () => new DomainError('NOT_FOUND', 'No such reset link, or it was used or has expired', 'token');
