import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { WebhookEnvelope } from '@app/contracts';
import { inTransaction, runAsyncCommit, runQueueClaim, runStatement, statement } from '@app/database';

import { DELIVERY_MACHINE, statesBefore } from './delivery-state';
import { QUEUE_DELIVERIES, RECORD_RESULTS } from './delivery-batches.repository';
import { AttemptResult, AttemptRow, ClaimedAttempt, DeliveryTarget, QueuedEvent } from './webhook-delivery.types';
import { DeliveryStatus } from './webhook-delivery.entity';
import { newSigningSecret } from '@app/webhook-signature';
import { DecryptError, SecretOwner, WebhookSecretCipher } from '@app/cipher';

type ClaimedRow = Omit<ClaimedAttempt, 'secrets'> & {
  endpointId: string | null;
  merchantCode: string;
  environment: string;
  keyId: string | null;
  blob: Buffer | null;
  previousKeyId: string | null;
  previousBlob: Buffer | null;
};

/** Tries due now and not yet sent, and how long the earliest has been due (served by `webhook_attempts_due`). */
export const WEBHOOK_BACKLOG = statement(
  'webhook_attempts_backlog',
  `SELECT count(*)::int AS n, COALESCE(EXTRACT(EPOCH FROM now() - min(due_at)), 0)::float8 AS age
     FROM webhook_attempts WHERE status = 'pending' AND due_at <= now()`,
);

/** Due tries, earliest first, leased for $2 seconds (claimed in index order: see runQueueClaim). */
const CLAIM_DUE = statement(
  'webhook_attempts_claim_due',
  `WITH claimed AS (
     UPDATE webhook_attempts SET claimed_until = now() + make_interval(secs => $2)
     WHERE id IN (
       SELECT id FROM webhook_attempts
       WHERE status = 'pending' AND due_at <= now() AND (claimed_until IS NULL OR claimed_until < now())
       ORDER BY due_at
       LIMIT $1
       FOR UPDATE SKIP LOCKED)
     RETURNING id, delivery_id, attempt)
   SELECT c.id, c.attempt, d.id AS "deliveryId", d.event_id AS "eventId", d.url, d.body,
          d.endpoint_id AS "endpointId", d.merchant_code AS "merchantCode", d.environment,
          COALESCE(e.secret_key_id, s.secret_key_id) AS "keyId", COALESCE(e.secret_sealed, s.secret_sealed) AS blob,
          CASE WHEN COALESCE(e.previous_secret_expires_at, s.previous_secret_expires_at) > now()
            THEN COALESCE(e.previous_secret_key_id, s.previous_secret_key_id) END AS "previousKeyId",
          CASE WHEN COALESCE(e.previous_secret_expires_at, s.previous_secret_expires_at) > now()
            THEN COALESCE(e.previous_secret_sealed, s.previous_secret_sealed) END AS "previousBlob",
          (e.deleted_at IS NOT NULL) AS "endpointDeleted", COALESCE(e.disabled, false) AS "endpointDisabled",
          d.trace_parent AS "traceParent"
   FROM claimed c
   JOIN webhook_deliveries d ON d.id = c.delivery_id
   LEFT JOIN webhook_endpoints e ON e.id = d.endpoint_id
   LEFT JOIN webhook_secrets s
     ON d.endpoint_id IS NULL AND s.merchant_code = d.merchant_code AND s.environment = d.environment`,
);

/**
 * The endpoints subscribed to each event's type (or to `*`) in its merchant and environment: one row per
 * endpoint, a row of nulls when the merchant has none, no row for a merchant this service does not know. Rows
 * carry the 1-based index of their event.
 */
const SUBSCRIBED_ENDPOINTS = statement(
  'webhooks_subscribed_endpoints',
  `SELECT q.i::int AS i, e.id, e.url
   FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS q(merchant_code, environment, type, i)
   JOIN webhook_merchants m ON m.merchant_code = q.merchant_code
   LEFT JOIN webhook_endpoints e ON e.merchant_code = q.merchant_code AND e.environment = q.environment
     AND e.deleted_at IS NULL AND NOT e.disabled AND (q.type = ANY(e.events) OR '*' = ANY(e.events))`,
);

const ATTEMPT_VIEW = `a.id, d.event_id AS "eventId", d.event_type AS "eventType", a.attempt, a.status,
  d.id AS "deliveryId", d.status AS "deliveryStatus",
  a.attempt = (SELECT max(l.attempt) FROM webhook_attempts l WHERE l.delivery_id = d.id) AS "latest",
  CASE WHEN d.event_type LIKE 'payment_method.%' THEN d.body::jsonb #>> '{data,token}'
       ELSE d.body::jsonb #>> '{data,id}' END AS "objectId",
  a.response_status AS "responseStatus", a.response_excerpt AS "responseExcerpt", a.duration_ms AS "durationMs", a.attempted_at AS "attemptedAt",
  CASE WHEN a.status = 'pending' THEN a.due_at ELSE a.next_attempt_at END AS "nextAttemptAt", a.error`;

const INSERT_DELIVERY = statement(
  'webhook_deliveries_insert',
  `INSERT INTO webhook_deliveries
     (id, event_id, event_type, merchant_code, environment, target, endpoint_id, url, body, status, trace_parent)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $10)
   ON CONFLICT (event_id, target) DO NOTHING RETURNING id`,
);
const SET_DELIVERY_STATUS = statement(
  'webhook_deliveries_set_status',
  'UPDATE webhook_deliveries SET status = $2 WHERE id = $1',
);
/** $3: the last attempt id of the previous page, or null. */
const ENDPOINT_ATTEMPTS = statement(
  'webhook_attempts_of_endpoint',
  `SELECT ${ATTEMPT_VIEW} FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
    WHERE d.endpoint_id = $1
      AND ($3::uuid IS NULL OR (a.created_at, a.id) < (SELECT created_at, id FROM webhook_attempts WHERE id = $3))
    ORDER BY a.created_at DESC, a.id DESC LIMIT $2`,
);
const LOCK_FOR_RESEND = statement(
  'webhook_deliveries_lock_for_resend',
  `SELECT d.id, d.status, (SELECT max(attempt) FROM webhook_attempts WHERE delivery_id = d.id)::int AS last
     FROM webhook_deliveries d
    WHERE d.endpoint_id = $1
      AND (d.id = $2 OR d.id = (SELECT delivery_id FROM webhook_attempts WHERE id = $2))
    FOR UPDATE OF d`,
);
const BRING_FORWARD = statement(
  'webhook_attempts_bring_forward',
  `UPDATE webhook_attempts SET due_at = LEAST(due_at, now())
    WHERE delivery_id = $1 AND status = 'pending' AND (claimed_until IS NULL OR claimed_until < now())`,
);
const LATEST_ATTEMPT = statement(
  'webhook_attempts_latest',
  `SELECT ${ATTEMPT_VIEW} FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
    WHERE a.delivery_id = $1 ORDER BY a.attempt DESC LIMIT 1`,
);
const ATTEMPT_OF_ENDPOINT = statement(
  'webhook_attempts_is_of_endpoint',
  `SELECT 1 FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
    WHERE a.id = $1 AND d.endpoint_id = $2`,
);
const INSERT_ATTEMPT = statement(
  'webhook_attempts_insert',
  `INSERT INTO webhook_attempts (id, delivery_id, attempt, status, due_at)
   VALUES ($1, $2, $3, 'pending', COALESCE($4, now()))
   ON CONFLICT (delivery_id, attempt) DO NOTHING`,
);
const ATTEMPT = statement(
  'webhook_attempts_by_number',
  `SELECT ${ATTEMPT_VIEW} FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
    WHERE a.delivery_id = $1 AND a.attempt = $2`,
);
const ENSURE_ACCOUNT_SECRET = statement(
  'webhook_secrets_ensure',
  `INSERT INTO webhook_secrets (merchant_code, environment, secret_key_id, secret_sealed, created_at)
   VALUES ($1, $2, $3, $4, now()) ON CONFLICT (merchant_code, environment) DO NOTHING`,
);

/** A row type as runStatement answers it. */
type Row<T> = T & Record<string, unknown>;

/**
 * The delivery log. Scheduling uses the database clock (real time, shared by every replica), never the
 * sandbox clock: webhook retry timing is real time in both environments (docs/webhooks.md).
 */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly cipher: WebhookSecretCipher,
  ) {}

  /**
   * For each event, in order, the targets subscribed to it, in one statement; `undefined` when this service
   * does not know the merchant at all (another deployment sharing the NATS server, or a test stack): then
   * nothing is delivered, not even to a `webhookUrl`.
   */
  async subscribedEndpoints(envelopes: WebhookEnvelope[]): Promise<Array<DeliveryTarget[] | undefined>> {
    const rows = await runStatement<{ i: number; id: string | null; url: string | null }>(
      this.db,
      SUBSCRIBED_ENDPOINTS,
      [envelopes.map((e) => e.merchantCode), envelopes.map((e) => e.environment), envelopes.map((e) => e.type)],
    );
    const out: Array<DeliveryTarget[] | undefined> = envelopes.map(() => undefined);
    for (const r of rows) {
      const targets = (out[r.i - 1] ??= []);
      if (r.id !== null && r.url !== null) targets.push({ target: `endpoint:${r.id}`, endpointId: r.id, url: r.url });
    }
    return out;
  }

  /**
   * Inserts one delivery per target and its first try, due now, in one transaction. UNIQUE (event_id, target)
   * with ON CONFLICT DO NOTHING makes a second call for the same event (a redelivery, another replica) a no-op.
   * `traceParent` (null with tracing off) is kept on each delivery: every try of it, resends too, links to it.
   * Returns the first tries that were created.
   */
  async insertDeliveries(
    envelope: WebhookEnvelope,
    body: string,
    targets: DeliveryTarget[],
    traceParent: string | null,
  ): Promise<AttemptRow[]> {
    if (!targets.length) return [];
    return inTransaction(this.db, async (m) => {
      const created: AttemptRow[] = [];
      for (const t of targets) {
        const rows = await runStatement<{ id: string }>(m, INSERT_DELIVERY, [
          uuidv7(),
          envelope.id,
          envelope.type,
          envelope.merchantCode,
          envelope.environment,
          t.target,
          t.endpointId,
          t.url,
          body,
          traceParent,
        ]);
        if (!rows.length) continue;
        if (!t.endpointId) await this.ensureAccountSecret(m, envelope);
        created.push(await this.insertAttempt(m, rows[0].id, 1, null));
      }
      return created;
    });
  }

  /**
   * `insertDeliveries` for events that arrived together, in one transaction: the account secret for each
   * merchant and environment with a `webhookUrl` target, then every delivery and its first try in one
   * statement. Returns how many deliveries were created.
   */
  async queueDeliveries(queued: QueuedEvent[]): Promise<number> {
    const rows = queued.flatMap((q) => q.targets.map((t) => ({ ...q, target: t, id: uuidv7(), attemptId: uuidv7() })));
    if (!rows.length) return 0;
    return inTransaction(this.db, async (m) => {
      const accounts = new Map<string, WebhookEnvelope>();
      for (const r of rows) {
        if (!r.target.endpointId) accounts.set(`${r.envelope.merchantCode}|${r.envelope.environment}`, r.envelope);
      }
      for (const envelope of accounts.values()) await this.ensureAccountSecret(m, envelope);
      const created = await runStatement<{ delivery_id: string }>(m, QUEUE_DELIVERIES, [
        rows.map((r) => r.id),
        rows.map((r) => r.envelope.id),
        rows.map((r) => r.envelope.type),
        rows.map((r) => r.envelope.merchantCode),
        rows.map((r) => r.envelope.environment),
        rows.map((r) => r.target.target),
        rows.map((r) => r.target.endpointId),
        rows.map((r) => r.target.url),
        rows.map((r) => r.body),
        rows.map((r) => r.traceParent),
        rows.map((r) => r.attemptId),
      ]);
      return created.length;
    });
  }

  /** Claims tries that are due: FOR UPDATE SKIP LOCKED plus a lease, so a crashed replica's claim lapses. */
  async claimDue(limit: number, leaseSeconds: number): Promise<ClaimedAttempt[]> {
    // A lease lost in a database crash only lets the try be claimed again (at least once).
    const rows = await runQueueClaim<ClaimedRow>(this.db, CLAIM_DUE, [limit, leaseSeconds], { asyncCommit: true });
    return rows.map(({ endpointId, merchantCode, environment, keyId, blob, previousKeyId, previousBlob, ...claim }) => {
      const owner: SecretOwner = endpointId ? { endpointId } : { merchantCode, environment };
      const current = this.openSecret(owner, keyId, blob);
      const previous = current === null ? null : this.openSecret(owner, previousKeyId, previousBlob);
      return { ...claim, secrets: [current, previous].filter((x): x is string => x !== null) };
    });
  }

  /** A secret that cannot be opened (its key left WEBHOOK_SECRET_KEYS) signs nothing: the try fails, logged. */
  private openSecret(owner: SecretOwner, keyId: string | null, blob: Buffer | null): string | null {
    if (keyId === null || blob === null) return null;
    try {
      return this.cipher.open(owner, { keyId, blob });
    } catch (e) {
      if (e instanceof DecryptError) return null;
      throw e;
    }
  }

  /**
   * Records how tries ended, any number in one statement (results are gathered while tries are in flight), and
   * schedules the next try of each that failed with retries left. Each is guarded on the try still being in a
   * state its end may follow (pending): a try whose lease lapsed and that another replica finished is not
   * recorded twice. Commits without waiting for the WAL flush: a database crash can lose only these marks, and
   * then the tries are sent again once their lease lapses (delivery is at least once; receivers de-duplicate).
   */
  async recordAll(results: AttemptResult[]): Promise<void> {
    if (!results.length) return;
    await runAsyncCommit(this.db, RECORD_RESULTS, [
      results.map((r) => r.claim.id),
      results.map((r) => r.decision.attempt),
      results.map((r) => r.attemptedAt),
      results.map((r) => r.outcome.responseStatus),
      results.map((r) => r.outcome.durationMs),
      results.map((r) => r.outcome.error),
      results.map((r) => r.decision.retryInSeconds),
      results.map((r) => r.outcome.responseExcerpt),
      results.map((r) => statesBefore(r.decision.attempt).join(',')),
      results.map(() => uuidv7()),
      results.map((r) => r.decision.delivery),
    ]);
  }

  /** Tries of an endpoint's deliveries, newest first (the caller checked the endpoint and the cursor). */
  listForEndpoint(endpointId: string, limit: number, startingAfter?: string): Promise<AttemptRow[]> {
    return runStatement<Row<AttemptRow>>(this.db, ENDPOINT_ATTEMPTS, [endpointId, limit, startingAfter ?? null]);
  }

  /**
   * Sends a delivery of the endpoint again, named by the id of one of its attempts (as the log shows them) or
   * by its own id: a dead one gets a new try, due now; a failed one waiting for its next try has that try
   * brought forward to now. The body and Webhook-Id are the delivery's own. Answers the try that will be sent,
   * `succeeded` when the delivery needs nothing, or undefined when the endpoint has no such delivery.
   */
  async resend(endpointId: string, id: string): Promise<AttemptRow | 'succeeded' | undefined> {
    return inTransaction(this.db, async (m) => {
      const found = await runStatement<{ id: string; status: DeliveryStatus; last: number }>(m, LOCK_FOR_RESEND, [
        endpointId,
        id,
      ]);
      const delivery = found[0];
      if (!delivery) return undefined;
      if (delivery.status === 'succeeded') return 'succeeded';
      if (delivery.status === 'dead') {
        const { to } = DELIVERY_MACHINE.transition(delivery.status, 'resend');
        await runStatement(m, SET_DELIVERY_STATUS, [delivery.id, to]);
        return this.insertAttempt(m, delivery.id, delivery.last + 1, null);
      }
      // Pending: its next try is brought forward, unless a worker is sending it right now.
      await runStatement(m, BRING_FORWARD, [delivery.id]);
      const rows = await runStatement<Row<AttemptRow>>(m, LATEST_ATTEMPT, [delivery.id]);
      return rows[0];
    });
  }

  async attemptOfEndpoint(endpointId: string, attemptId: string): Promise<boolean> {
    const rows = await runStatement(this.db, ATTEMPT_OF_ENDPOINT, [attemptId, endpointId]);
    return rows.length > 0;
  }

  private async insertAttempt(
    m: EntityManager,
    deliveryId: string,
    attempt: number,
    due: Date | null,
  ): Promise<AttemptRow> {
    const id = uuidv7();
    await runStatement(m, INSERT_ATTEMPT, [id, deliveryId, attempt, due]);
    const rows = await runStatement<Row<AttemptRow>>(m, ATTEMPT, [deliveryId, attempt]);
    return rows[0];
  }

  /** A payment's webhookUrl is signed with the account secret: make sure there is one to sign with. */
  private async ensureAccountSecret(m: EntityManager, envelope: WebhookEnvelope): Promise<void> {
    const sealed = this.cipher.seal(envelope, newSigningSecret());
    await runStatement(m, ENSURE_ACCOUNT_SECRET, [
      envelope.merchantCode,
      envelope.environment,
      sealed.keyId,
      sealed.blob,
    ]);
  }
}
