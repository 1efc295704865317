import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { inTransaction } from '@app/database';

export interface StoredSession {
  id: string;
  userId: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

/** Dashboard sessions (stored by token hash only) and the failed sign-ins the lockout counts. */
@Injectable()
export class DashboardSessionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(session: StoredSession & { tokenHash: string }): Promise<void> {
    await this.db.query(
      `INSERT INTO dashboard_sessions (id, token_hash, user_id, created_at, last_seen_at, expires_at)
       VALUES ($1, $2, $3, $4, $4, $5)`,
      [session.id, session.tokenHash, session.userId, session.createdAt, session.expiresAt],
    );
  }

  /**
   * The live session of a token hash, its last use moved to `now` (written at most every 30 seconds, so a busy
   * tab does not write a row per request). A session past either expiry is ended here and is not answered.
   */
  async use(tokenHash: string, now: Date, idleMs: number): Promise<StoredSession | null> {
    const rows: StoredSession[] = await this.db.query(
      `SELECT id, user_id AS "userId", created_at AS "createdAt", last_seen_at AS "lastSeenAt", expires_at AS "expiresAt"
       FROM dashboard_sessions WHERE token_hash = $1 AND ended_at IS NULL`,
      [tokenHash],
    );
    const session = rows[0];
    if (!session) return null;
    const idleUntil = session.lastSeenAt.getTime() + idleMs;
    if (now.getTime() >= idleUntil || now.getTime() >= session.expiresAt.getTime()) {
      await this.db.query('UPDATE dashboard_sessions SET ended_at = $2 WHERE id = $1 AND ended_at IS NULL', [
        session.id,
        now,
      ]);
      return null;
    }
    if (now.getTime() - session.lastSeenAt.getTime() >= 30_000) {
      await this.db.query('UPDATE dashboard_sessions SET last_seen_at = GREATEST(last_seen_at, $2) WHERE id = $1', [
        session.id,
        now,
      ]);
      session.lastSeenAt = now;
    }
    return session;
  }

  async end(id: string, now: Date): Promise<void> {
    await this.db.query('UPDATE dashboard_sessions SET ended_at = $2 WHERE id = $1 AND ended_at IS NULL', [id, now]);
  }

  async endAllOf(userId: string, now: Date): Promise<void> {
    await this.db.query('UPDATE dashboard_sessions SET ended_at = $2 WHERE user_id = $1 AND ended_at IS NULL', [
      userId,
      now,
    ]);
  }

  /**
   * Reserves a sign-in attempt for this email before its password is checked (STYLE.md, boundaries: the limit
   * takes its slot before the act it limits, so parallel guesses cannot slip past it). Answers the reservation's
   * id, or, when `limit` attempts within the window are recorded already, when the oldest of them leaves it.
   */
  async reserveAttempt(
    email: string,
    now: Date,
    windowMs: number,
    limit: number,
  ): Promise<{ id: string } | { lockedUntil: Date }> {
    return inTransaction(this.db, async (m) => {
      // One email's attempts are counted one at a time.
      await m.query(`SELECT pg_advisory_xact_lock(hashtext('dashboard-sign-in:' || $1))`, [email]);
      const since = new Date(now.getTime() - windowMs);
      await m.query('DELETE FROM dashboard_login_failures WHERE email = $1 AND failed_at <= $2', [email, since]);
      const recent: { failedAt: Date }[] = await m.query(
        `SELECT failed_at AS "failedAt" FROM dashboard_login_failures WHERE email = $1 ORDER BY failed_at`,
        [email],
      );
      if (recent.length >= limit) {
        return { lockedUntil: new Date(recent[recent.length - limit].failedAt.getTime() + windowMs) };
      }
      const id = uuidv7();
      await m.query('INSERT INTO dashboard_login_failures (id, email, failed_at) VALUES ($1, $2, $3)', [
        id,
        email,
        now,
      ]);
      return { id };
    });
  }

  /** Takes back one reserved attempt (a step that guessed nothing, such as asking for the TOTP code). */
  async releaseAttempt(id: string): Promise<void> {
    await this.db.query('DELETE FROM dashboard_login_failures WHERE id = $1', [id]);
  }

  /**
   * Deletes at most `limit` sessions that ended (signed out, idle for `idleMs` or past their absolute expiry) at
   * or before `endedBy`, claimed with FOR UPDATE SKIP LOCKED; answers how many went.
   */
  async pruneSessions(endedBy: Date, idleMs: number, limit: number): Promise<number> {
    const [, count]: [unknown, number] = await this.db.query(
      `DELETE FROM dashboard_sessions WHERE id IN (
         SELECT id FROM dashboard_sessions
         WHERE LEAST(COALESCE(ended_at, 'infinity'), expires_at, last_seen_at + make_interval(secs => $2)) <= $1
         LIMIT $3 FOR UPDATE SKIP LOCKED)`,
      [endedBy, idleMs / 1000, limit],
    );
    return count;
  }

  /** Deletes at most `limit` failed sign-ins made at or before `before` (out of every lockout window). */
  async pruneAttempts(before: Date, limit: number): Promise<number> {
    const [, count]: [unknown, number] = await this.db.query(
      `DELETE FROM dashboard_login_failures WHERE id IN (
         SELECT id FROM dashboard_login_failures WHERE failed_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [before, limit],
    );
    return count;
  }

  /** A successful sign-in clears the email's count. */
  async clearAttempts(email: string): Promise<void> {
    await this.db.query('DELETE FROM dashboard_login_failures WHERE email = $1', [email]);
  }
}
