import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Sealed } from '@app/cipher';
import { inTransaction, runStatement, statement } from '@app/database';
import type { Role } from '../auth/permission';

export interface Membership {
  merchantCode: string;
  merchantName: string;
  role: Role;
  /** The merchant's integer id, carried in the command context (not shown to the browser). */
  merchantId: number;
}

export interface DashboardUser {
  id: string;
  email: string;
  passwordHash: string | null;
  totpEnabled: boolean;
  /** The active TOTP secret, sealed: there exactly when TOTP is on. */
  totp: Sealed | null;
  /** A new secret waiting for its first code (it replaces `totp` only then), and when it was made. */
  totpPending: { sealed: Sealed; since: Date } | null;
  /** The last TOTP time step accepted: a code is good once. */
  totpLastStep: number | null;
  createdAt: Date;
}

const USER_COLUMNS = `u.id, u.email, u.password_hash AS "passwordHash", u.totp_enabled AS "totpEnabled",
  u.totp_key_id AS "totpKeyId", u.totp_sealed AS "totpSealed", u.totp_last_step::text AS "totpLastStep",
  u.totp_pending_key_id AS "pendingKeyId", u.totp_pending_sealed AS "pendingSealed",
  u.totp_pending_at AS "pendingAt", u.created_at AS "createdAt"`;

type UserRow = Omit<DashboardUser, 'totp' | 'totpLastStep' | 'totpPending'> & {
  totpKeyId: string | null;
  totpSealed: Buffer | null;
  totpLastStep: string | null;
  pendingKeyId: string | null;
  pendingSealed: Buffer | null;
  pendingAt: Date | null;
};

const toUser = ({
  totpKeyId,
  totpSealed,
  totpLastStep,
  pendingKeyId,
  pendingSealed,
  pendingAt,
  ...row
}: UserRow): DashboardUser => ({
  ...row,
  totp: totpKeyId && totpSealed ? { keyId: totpKeyId, blob: totpSealed } : null,
  totpLastStep: totpLastStep === null ? null : Number(totpLastStep),
  totpPending:
    pendingKeyId && pendingSealed && pendingAt
      ? { sealed: { keyId: pendingKeyId, blob: pendingSealed }, since: pendingAt }
      : null,
});

const INSERT_USER = statement(
  'dashboard_users_insert',
  `INSERT INTO dashboard_users (id, email, created_at) VALUES ($1, $2, $3)
   ON CONFLICT (email) DO NOTHING RETURNING id`,
);
const INSERT_MEMBERSHIPS = statement(
  'dashboard_memberships_insert',
  `INSERT INTO dashboard_memberships (user_id, merchant_id, role)
   SELECT $1, mc.id, x.role FROM unnest($2::text[], $3::text[]) AS x (code, role)
   JOIN merchants mc ON mc.merchant_code = x.code
   RETURNING (SELECT m.merchant_code FROM merchants m WHERE m.id = dashboard_memberships.merchant_id) AS "merchantCode"`,
);
const INSERT_INVITATION = statement(
  'dashboard_invitations_insert',
  'INSERT INTO dashboard_invitations (token_hash, user_id, expires_at, created_at) VALUES ($1, $2, $3, $4)',
);
const INVITATION_OPEN = statement(
  'dashboard_invitations_open',
  'SELECT 1 FROM dashboard_invitations WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2',
);
const ACCEPT_INVITATION = statement(
  'dashboard_invitations_accept',
  `WITH used AS (
     UPDATE dashboard_invitations SET used_at = $3
      WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $3
     RETURNING user_id)
   UPDATE dashboard_users u SET password_hash = $2 FROM used WHERE u.id = used.user_id RETURNING u.email`,
);
const BY_EMAIL = statement(
  'dashboard_users_by_email',
  `SELECT ${USER_COLUMNS} FROM dashboard_users u WHERE u.email = $1`,
);
const BY_ID = statement('dashboard_users_by_id', `SELECT ${USER_COLUMNS} FROM dashboard_users u WHERE u.id = $1`);
const MEMBERSHIPS = statement(
  'dashboard_users_memberships',
  `SELECT mc.merchant_code AS "merchantCode", mc.name AS "merchantName", dm.role,
          mc.merchant_id::float8 AS "merchantId"
     FROM dashboard_memberships dm JOIN merchants mc ON mc.id = dm.merchant_id
    WHERE dm.user_id = $1 ORDER BY mc.merchant_code`,
);
const LIST = statement(
  'dashboard_users_list',
  `SELECT ${USER_COLUMNS}, COALESCE(
     (SELECT json_agg(json_build_object('merchantCode', mc.merchant_code, 'merchantName', mc.name, 'role', dm.role,
                               'merchantId', mc.merchant_id)
             ORDER BY mc.merchant_code)
      FROM dashboard_memberships dm JOIN merchants mc ON mc.id = dm.merchant_id WHERE dm.user_id = u.id),
     '[]') AS memberships
   FROM dashboard_users u ORDER BY u.created_at DESC, u.id DESC LIMIT 1000`,
);
const DELETE = statement('dashboard_users_delete', 'DELETE FROM dashboard_users WHERE id = $1 RETURNING id');
const LOCK = statement(
  'dashboard_users_lock',
  `SELECT ${USER_COLUMNS} FROM dashboard_users u WHERE u.id = $1 FOR UPDATE`,
);
const SET_PENDING_TOTP = statement(
  'dashboard_users_set_pending_totp',
  `UPDATE dashboard_users SET totp_pending_key_id = $2, totp_pending_sealed = $3, totp_pending_at = $4
    WHERE id = $1`,
);
const ACTIVATE_PENDING_TOTP = statement(
  'dashboard_users_activate_pending_totp',
  `UPDATE dashboard_users SET totp_key_id = totp_pending_key_id, totp_sealed = totp_pending_sealed,
     totp_enabled = true, totp_last_step = $2,
     totp_pending_key_id = NULL, totp_pending_sealed = NULL, totp_pending_at = NULL
   WHERE id = $1 AND totp_pending_sealed IS NOT NULL`,
);
const REMOVE_TOTP = statement(
  'dashboard_users_remove_totp',
  `UPDATE dashboard_users SET totp_enabled = false, totp_key_id = NULL, totp_sealed = NULL, totp_last_step = NULL,
     totp_pending_key_id = NULL, totp_pending_sealed = NULL, totp_pending_at = NULL
   WHERE id = $1`,
);
const USE_TOTP_STEP = statement(
  'dashboard_users_use_totp_step',
  `UPDATE dashboard_users SET totp_last_step = $2
    WHERE id = $1 AND totp_enabled AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id`,
);

type Row<T> = T & Record<string, unknown>;

/** Dashboard users, their memberships and invitations (migrations/1768400000003-dashboard-users.ts). */
@Injectable()
export class DashboardUsersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return inTransaction(this.db, work);
  }

  /** Inserts the user, or answers false when the email is taken. */
  async insertUser(m: EntityManager, user: { id: string; email: string; createdAt: Date }): Promise<boolean> {
    const rows = await runStatement(m, INSERT_USER, [user.id, user.email, user.createdAt]);
    return rows.length === 1;
  }

  /** Adds the memberships; answers the merchant codes that do not exist (none added then, by the caller's rollback). */
  async insertMemberships(
    m: EntityManager,
    userId: string,
    memberships: { merchantCode: string; role: Role }[],
  ): Promise<string[]> {
    const codes = memberships.map((x) => x.merchantCode);
    const values = [userId, codes, memberships.map((x) => x.role)];
    const rows = await runStatement<{ merchantCode: string }>(m, INSERT_MEMBERSHIPS, values);
    const found = new Set(rows.map((r) => r.merchantCode));
    return codes.filter((c) => !found.has(c));
  }

  async insertInvitation(
    m: EntityManager,
    invitation: { tokenHash: string; userId: string; expiresAt: Date; createdAt: Date },
  ): Promise<void> {
    const { tokenHash, userId, expiresAt, createdAt } = invitation;
    await runStatement(m, INSERT_INVITATION, [tokenHash, userId, expiresAt, createdAt]);
  }

  /** Whether an unused, unexpired invitation has this token hash (looked at before any password is hashed). */
  async invitationOpen(tokenHash: string, now: Date): Promise<boolean> {
    const rows = await runStatement(this.db, INVITATION_OPEN, [tokenHash, now]);
    return rows.length === 1;
  }

  /**
   * Uses an invitation: the unused, unexpired invitation of this token hash is marked used and its user's
   * password set, in one statement; answers the user's email, or null when there is no such invitation.
   */
  async acceptInvitation(tokenHash: string, passwordHash: string, now: Date): Promise<string | null> {
    const rows = await runStatement<{ email: string }>(this.db, ACCEPT_INVITATION, [tokenHash, passwordHash, now]);
    return rows[0]?.email ?? null;
  }

  async findByEmail(email: string): Promise<DashboardUser | null> {
    const rows = await runStatement<Row<UserRow>>(this.db, BY_EMAIL, [email]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  async findById(id: string): Promise<DashboardUser | null> {
    const rows = await runStatement<Row<UserRow>>(this.db, BY_ID, [id]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  async memberships(userId: string): Promise<Membership[]> {
    return runStatement<Row<Membership>>(this.db, MEMBERSHIPS, [userId]);
  }

  /** Every user with its memberships, newest first (the admin API's list; bounded like the key list). */
  async list(): Promise<(DashboardUser & { memberships: Membership[] })[]> {
    const rows = await runStatement<Row<UserRow & { memberships: Membership[] }>>(this.db, LIST, []);
    return rows.map(({ memberships, ...row }) => ({ ...toUser(row), memberships }));
  }

  /** Deletes the user; its memberships, invitations and sessions go with it (ON DELETE CASCADE). */
  async delete(id: string): Promise<boolean> {
    const rows = await runStatement(this.db, DELETE, [id]);
    return rows.length === 1;
  }

  /** The user's row, locked until the transaction ends (a TOTP change reads and writes it under the lock). */
  async lockUser(m: EntityManager, id: string): Promise<DashboardUser | null> {
    const rows = await runStatement<Row<UserRow>>(m, LOCK, [id]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  /** A new secret waits for its first code; the active setting stays as it is. */
  async setPendingTotp(userId: string, sealed: Sealed, since: Date): Promise<void> {
    await runStatement(this.db, SET_PENDING_TOTP, [userId, sealed.keyId, sealed.blob, since]);
  }

  /** The pending secret becomes the active one, TOTP on, with the confirming code's step used. */
  async activatePendingTotp(m: EntityManager, userId: string, step: number): Promise<void> {
    await runStatement(m, ACTIVATE_PENDING_TOTP, [userId, step]);
  }

  /** TOTP off: the active secret and any pending one are gone. */
  async removeTotp(m: EntityManager, userId: string): Promise<void> {
    await runStatement(m, REMOVE_TOTP, [userId]);
  }

  /**
   * Records a code's time step of the active secret as used: answers false when this or a later step was used
   * already, so a code is good once even with two requests racing.
   */
  async useTotpStep(userId: string, step: number): Promise<boolean> {
    const rows = await runStatement(this.db, USE_TOTP_STEP, [userId, step]);
    return rows.length === 1;
  }
}
