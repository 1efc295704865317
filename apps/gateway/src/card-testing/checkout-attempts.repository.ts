import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { inTransaction, runStatement, Statement, statement } from '@app/database';

/** Who a limit counts: the client address or the payment link. */
export type BlockScope = 'address' | 'link';

/** One attempt on a link's checkout, as the limit counts it (table checkout_attempts). */
export interface CheckoutAttempt {
  id: string;
  address: string;
  linkId: string;
  state: 'in_flight' | 'challenge' | 'declined';
  sessionId: string | null;
  /** When the 3DS session of a `challenge` attempt ends; unfinished by then, it counts as a decline. */
  challengeEndsAt: Date | null;
  /** Until when the attempt counts against its address and its link. */
  countsUntil: Date;
  createdAt: Date;
}

/** The first key of the two-key advisory locks, one per scope, so an address never shares a lock with a link. */
const LOCK_SPACE: Record<BlockScope, number> = { address: 3401, link: 3402 };

const SELECT = `SELECT id, address, link_id AS "linkId", state, session_id AS "sessionId",
  challenge_ends_at AS "challengeEndsAt", counts_until AS "countsUntil", created_at AS "createdAt"
  FROM checkout_attempts`;

const LOCK = statement('checkout_attempts_lock', 'SELECT pg_advisory_xact_lock($1, hashtext($2))');
const counting = (column: string): string =>
  `SELECT counts_until AS "countsUntil" FROM checkout_attempts
    WHERE ${column} = $1 AND counts_until > $2 ORDER BY counts_until`;
const COUNTING: Record<BlockScope, Statement> = {
  address: statement('checkout_attempts_counting_address', counting('address')),
  link: statement('checkout_attempts_counting_link', counting('link_id')),
};
const declines = (column: string): string =>
  `SELECT count(*)::int AS n FROM checkout_attempts
    WHERE ${column} = $1 AND counts_until > $2
      AND (state = 'declined' OR (state = 'challenge' AND challenge_ends_at <= $2))`;
const DECLINES: Record<BlockScope, Statement> = {
  address: statement('checkout_attempts_declines_address', declines('address')),
  link: statement('checkout_attempts_declines_link', declines('link_id')),
};
const INSERT = statement(
  'checkout_attempts_insert',
  `INSERT INTO checkout_attempts (id, address, link_id, state, session_id, challenge_ends_at, counts_until, created_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
);
const BY_ID = statement('checkout_attempts_by_id', `${SELECT} WHERE id = $1`);
const BY_SESSION = statement('checkout_attempts_by_session', `${SELECT} WHERE link_id = $1 AND session_id = $2`);
const UPDATE = statement(
  'checkout_attempts_update',
  `UPDATE checkout_attempts SET state = $2, session_id = $3, challenge_ends_at = $4, counts_until = $5
    WHERE id = $1`,
);
const DELETE = statement('checkout_attempts_delete', 'DELETE FROM checkout_attempts WHERE id = $1');
const PRUNE = statement(
  'checkout_attempts_prune',
  `WITH pruned AS (
     DELETE FROM checkout_attempts WHERE id IN (
       SELECT id FROM checkout_attempts WHERE counts_until <= $1
       ORDER BY counts_until LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING 1)
   SELECT count(*)::int AS n FROM pruned`,
);

type Row = CheckoutAttempt & Record<string, unknown>;

/**
 * The card-testing limit's attempts. Every writer takes the transaction-scoped advisory locks of the
 * attempt's address and then of its link (`lockKeys`, always in that order, so two writers never wait on
 * each other in a cycle): a count taken under them stays true until the transaction commits, on every
 * replica.
 */
@Injectable()
export class CheckoutAttemptsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return inTransaction(this.db, work);
  }

  async lockKeys(m: EntityManager, address: string, linkId: string): Promise<void> {
    for (const [scope, key] of [
      ['address', address],
      ['link', linkId],
    ] as const) {
      await runStatement(m, LOCK, [LOCK_SPACE[scope], key]);
    }
  }

  /** When each attempt that still counts against `key` stops counting, soonest first. */
  async counting(m: EntityManager, scope: BlockScope, key: string, now: Date): Promise<Date[]> {
    const rows = await runStatement<{ countsUntil: Date }>(m, COUNTING[scope], [key, now]);
    return rows.map((r) => r.countsUntil);
  }

  /** The declines that count against `key`: settled ones and 3DS challenges whose session ended unfinished. */
  async declines(m: EntityManager, scope: BlockScope, key: string, now: Date): Promise<number> {
    const [{ n }] = await runStatement<{ n: number }>(m, DECLINES[scope], [key, now]);
    return n;
  }

  async insert(m: EntityManager, a: CheckoutAttempt): Promise<void> {
    const values = [a.id, a.address, a.linkId, a.state, a.sessionId, a.challengeEndsAt, a.countsUntil, a.createdAt];
    await runStatement(m, INSERT, values);
  }

  async byId(m: EntityManager, id: string): Promise<CheckoutAttempt | undefined> {
    return (await runStatement<Row>(m, BY_ID, [id]))[0];
  }

  /** The attempt whose 3DS session this is, on this link. */
  async bySession(m: EntityManager, linkId: string, sessionId: string): Promise<CheckoutAttempt | undefined> {
    return (await runStatement<Row>(m, BY_SESSION, [linkId, sessionId]))[0];
  }

  async update(
    m: EntityManager,
    id: string,
    to: Pick<CheckoutAttempt, 'state' | 'sessionId' | 'challengeEndsAt' | 'countsUntil'>,
  ): Promise<void> {
    await runStatement(m, UPDATE, [id, to.state, to.sessionId, to.challengeEndsAt, to.countsUntil]);
  }

  async delete(m: EntityManager, id: string): Promise<void> {
    await runStatement(m, DELETE, [id]);
  }

  /** Deletes at most `limit` attempts that no longer count; answers how many. */
  async prune(now: Date, limit: number): Promise<number> {
    const [{ n }] = await runStatement<{ n: number }>(this.db, PRUNE, [now, limit]);
    return n;
  }
}
