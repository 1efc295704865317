import { statement } from '@app/database';

// The batched statements of WebhookDeliveriesRepository (queueDeliveries, recordAll): a try's status and its
// delivery's are the ones the caller's transition table chose (delivery-state.ts), guarded on the states before.

/**
 * Records tries' ends ($1… one array entry per try): the try moves on (guarded on the states its end may follow,
 * comma-separated in $9), a failed one with a retry left gets its next try ($10 its id) due at next_attempt_at,
 * and the delivery takes its status ($11).
 */
export const RECORD_RESULTS = statement(
  'webhook_attempts_record_results',
  `WITH input AS (
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::int[], $5::int[], $6::text[], $7::float8[],
                          $8::text[], $9::text[], $10::uuid[], $11::text[])
       AS i(id, status, attempted_at, response_status, duration_ms, error, retry_in, excerpt, from_states, next_id,
            delivery_status)),
   done AS (
     UPDATE webhook_attempts a
     SET status = i.status, attempted_at = i.attempted_at, response_status = i.response_status,
         duration_ms = i.duration_ms, error = i.error, claimed_until = NULL, response_excerpt = i.excerpt,
         next_attempt_at = CASE WHEN i.retry_in IS NULL THEN NULL ELSE now() + make_interval(secs => i.retry_in) END
     FROM input i
     WHERE a.id = i.id AND a.status = ANY(string_to_array(i.from_states, ','))
     RETURNING a.delivery_id, a.attempt, a.next_attempt_at, i.next_id, i.delivery_status),
   next AS (
     INSERT INTO webhook_attempts (id, delivery_id, attempt, status, due_at)
     SELECT next_id, delivery_id, attempt + 1, 'pending', next_attempt_at FROM done WHERE next_attempt_at IS NOT NULL
     ON CONFLICT (delivery_id, attempt) DO NOTHING)
   UPDATE webhook_deliveries d SET status = done.delivery_status FROM done WHERE d.id = done.delivery_id`,
);

/**
 * Queues deliveries of events that arrived together, with their first tries due now, in one statement: one
 * array entry per (event, target). UNIQUE (event_id, target) with ON CONFLICT DO NOTHING makes a redelivered
 * event queue nothing again. Answers the deliveries created.
 */
export const QUEUE_DELIVERIES = statement(
  'webhook_deliveries_queue',
  `WITH input AS (
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::uuid[],
                          $8::text[], $9::text[], $10::text[], $11::uuid[])
       AS i(id, event_id, event_type, merchant_code, environment, target, endpoint_id, url, body, trace_parent,
            attempt_id)),
   created AS (
     INSERT INTO webhook_deliveries
       (id, event_id, event_type, merchant_code, environment, target, endpoint_id, url, body, status, trace_parent)
     SELECT id, event_id, event_type, merchant_code, environment, target, endpoint_id, url, body, 'pending',
            trace_parent
     FROM input
     ON CONFLICT (event_id, target) DO NOTHING
     RETURNING id)
   INSERT INTO webhook_attempts (id, delivery_id, attempt, status, due_at)
   SELECT i.attempt_id, c.id, 1, 'pending', now() FROM created c JOIN input i ON i.id = c.id
   RETURNING delivery_id`,
);
