import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { inTransaction, runStatement, statement } from '@app/database';
import type { Role } from '../auth/permission';

export interface TeamMember {
  id: string;
  email: string;
  role: Role;
  passwordSet: boolean;
  totpEnabled: boolean;
  createdAt: Date;
}

const MEMBER_COLUMNS = `u.id, u.email, dm.role, u.password_hash IS NOT NULL AS "passwordSet",
  u.totp_enabled AS "totpEnabled", u.created_at AS "createdAt"`;

const MEMBERS = statement(
  'dashboard_team_members',
  `SELECT ${MEMBER_COLUMNS} FROM dashboard_memberships dm
     JOIN dashboard_users u ON u.id = dm.user_id JOIN merchants mc ON mc.id = dm.merchant_id
    WHERE mc.merchant_code = $1 ORDER BY u.email`,
);
const LOCK_MEMBERS = statement(
  'dashboard_team_lock_members',
  `SELECT ${MEMBER_COLUMNS} FROM dashboard_memberships dm
     JOIN dashboard_users u ON u.id = dm.user_id JOIN merchants mc ON mc.id = dm.merchant_id
    WHERE mc.merchant_code = $1 ORDER BY u.id FOR UPDATE OF dm`,
);
const ADD_MEMBERSHIP = statement(
  'dashboard_team_add_membership',
  `INSERT INTO dashboard_memberships (user_id, merchant_id, role)
   SELECT $1, mc.id, $3 FROM merchants mc WHERE mc.merchant_code = $2
   ON CONFLICT DO NOTHING RETURNING user_id`,
);
const SET_ROLE = statement(
  'dashboard_team_set_role',
  `UPDATE dashboard_memberships dm SET role = $3 FROM merchants mc
    WHERE mc.id = dm.merchant_id AND dm.user_id = $1 AND mc.merchant_code = $2`,
);
const REMOVE_MEMBERSHIP = statement(
  'dashboard_team_remove_membership',
  `DELETE FROM dashboard_memberships dm USING merchants mc
    WHERE mc.id = dm.merchant_id AND dm.user_id = $1 AND mc.merchant_code = $2`,
);
const REMOVE_IF_NO_MEMBERSHIP = statement(
  'dashboard_team_remove_user_without_membership',
  `DELETE FROM dashboard_users u WHERE u.id = $1
     AND NOT EXISTS (SELECT 1 FROM dashboard_memberships WHERE user_id = u.id)`,
);
const RESETS_SINCE = statement(
  'dashboard_password_resets_since',
  'SELECT count(*)::int AS n FROM dashboard_password_resets WHERE user_id = $1 AND created_at > $2',
);
const INSERT_RESET = statement(
  'dashboard_password_resets_insert',
  'INSERT INTO dashboard_password_resets (token_hash, user_id, expires_at, created_at) VALUES ($1, $2, $3, $4)',
);
const RESET_OPEN = statement(
  'dashboard_password_resets_open',
  'SELECT 1 FROM dashboard_password_resets WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2',
);
const USE_RESET = statement(
  'dashboard_password_resets_use',
  `WITH used AS (
     UPDATE dashboard_password_resets SET used_at = $3
      WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $3 RETURNING user_id)
   UPDATE dashboard_users u SET password_hash = $2 FROM used WHERE u.id = used.user_id
   RETURNING u.id, u.email`,
);
const USE_UP_RESETS = statement(
  'dashboard_password_resets_use_up',
  'UPDATE dashboard_password_resets SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL',
);
const END_SESSIONS = statement(
  'dashboard_sessions_end_all_of',
  'UPDATE dashboard_sessions SET ended_at = $2 WHERE user_id = $1 AND ended_at IS NULL',
);

type Member = TeamMember & Record<string, unknown>;

/** One merchant's dashboard users (its team) and the one-time password reset links. */
@Injectable()
export class DashboardTeamRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return inTransaction(this.db, work);
  }

  members(merchantCode: string): Promise<TeamMember[]> {
    return runStatement<Member>(this.db, MEMBERS, [merchantCode]);
  }

  /**
   * The merchant's memberships, locked until the transaction ends: a role change or a removal reads who the
   * owners are and writes under the lock, so two owners demoting each other cannot leave none.
   */
  async lockMembers(m: EntityManager, merchantCode: string): Promise<TeamMember[]> {
    return runStatement<Member>(m, LOCK_MEMBERS, [merchantCode]);
  }

  /** Adds the membership; answers false when the user is a member already. */
  async addMembership(m: EntityManager, userId: string, merchantCode: string, role: Role): Promise<boolean> {
    const rows = await runStatement(m, ADD_MEMBERSHIP, [userId, merchantCode, role]);
    return rows.length === 1;
  }

  async setRole(m: EntityManager, userId: string, merchantCode: string, role: Role): Promise<void> {
    await runStatement(m, SET_ROLE, [userId, merchantCode, role]);
  }

  /** Removes the membership, and the user with it when it was their last: their sessions end at once. */
  async removeMembership(m: EntityManager, userId: string, merchantCode: string): Promise<void> {
    await runStatement(m, REMOVE_MEMBERSHIP, [userId, merchantCode]);
    await runStatement(m, REMOVE_IF_NO_MEMBERSHIP, [userId]);
  }

  /** Reset links asked for the user since `since` (at most a few an hour are emailed). */
  async resetsSince(userId: string, since: Date): Promise<number> {
    const rows = await runStatement<{ n: number }>(this.db, RESETS_SINCE, [userId, since]);
    return rows[0].n;
  }

  async insertReset(reset: { tokenHash: string; userId: string; expiresAt: Date; createdAt: Date }): Promise<void> {
    await runStatement(this.db, INSERT_RESET, [reset.tokenHash, reset.userId, reset.expiresAt, reset.createdAt]);
  }

  /** Whether an unused, unexpired reset has this token hash (looked at before any password is hashed). */
  async resetOpen(tokenHash: string, now: Date): Promise<boolean> {
    const rows = await runStatement(this.db, RESET_OPEN, [tokenHash, now]);
    return rows.length === 1;
  }

  /**
   * Uses a reset link in one statement that checks it again (of two racing uses, one wins): marks it used, sets
   * the password, every other open link of the user is used up and every session of theirs ends. Answers the
   * user's id and email.
   */
  async useReset(
    m: EntityManager,
    tokenHash: string,
    passwordHash: string,
    now: Date,
  ): Promise<{ id: string; email: string } | null> {
    const rows = await runStatement<{ id: string; email: string }>(m, USE_RESET, [tokenHash, passwordHash, now]);
    if (!rows[0]) return null;
    await runStatement(m, USE_UP_RESETS, [rows[0].id, now]);
    // Whoever knew the old password is signed out everywhere.
    await runStatement(m, END_SESSIONS, [rows[0].id, now]);
    return rows[0];
  }
}
