import { NatsConnection, RetentionPolicy, StorageType, StreamConfig } from 'nats';
import { addIsoDuration } from '@app/clock';
import { EVENT_STREAM_SUBJECTS, EVENTS_STREAM } from '@app/contracts';

/** The EVENTS stream's size and redundancy (EVENTS_STREAM_REPLICAS, _MAX_BYTES and _MAX_AGE). */
export interface EventsStreamLimits {
  replicas: number;
  /** -1: no size cap. */
  maxBytes: number;
  /** ISO 8601 duration. */
  maxAge: string;
}

export const DEFAULT_EVENTS_STREAM_LIMITS: EventsStreamLimits = { replicas: 1, maxBytes: -1, maxAge: 'P30D' };

/** The limits of a parsed app config. */
export function eventsStreamLimits(config: {
  EVENTS_STREAM_REPLICAS: number;
  EVENTS_STREAM_MAX_BYTES: number;
  EVENTS_STREAM_MAX_AGE: string;
}): EventsStreamLimits {
  return {
    replicas: config.EVENTS_STREAM_REPLICAS,
    maxBytes: config.EVENTS_STREAM_MAX_BYTES,
    maxAge: config.EVENTS_STREAM_MAX_AGE,
  };
}

/** The limits as JetStream fields (max_age in nanoseconds). */
export function streamLimitFields(
  limits: EventsStreamLimits,
): Pick<StreamConfig, 'num_replicas' | 'max_bytes' | 'max_age'> {
  const ageMs = addIsoDuration(new Date(0), limits.maxAge)?.getTime();
  if (!ageMs || ageMs <= 0) throw new Error(`EVENTS stream max age "${limits.maxAge}" is not a positive duration`);
  return { num_replicas: limits.replicas, max_bytes: limits.maxBytes, max_age: ageMs * 1e6 };
}

/**
 * Creates the EVENTS stream when missing; on an existing one, widens its subjects to the catalogue's and applies
 * the configured limits when they differ (every app runs this at start, so a changed setting takes effect with
 * the next rollout; replicas that race write the same values). Limits the server refuses (more replicas than
 * it has nodes) leave the stream as it is and working: the answer is then the server's reason, for a warning.
 */
export async function ensureEventsStream(
  nc: NatsConnection,
  limits: EventsStreamLimits = DEFAULT_EVENTS_STREAM_LIMITS,
): Promise<string | undefined> {
  const jsm = await nc.jetstreamManager();
  const subjects = [...EVENT_STREAM_SUBJECTS];
  const wanted = streamLimitFields(limits);
  try {
    const info = await jsm.streams.info(EVENTS_STREAM);
    const missing = subjects.filter((s) => !info.config.subjects.includes(s));
    const differs = (Object.keys(wanted) as (keyof typeof wanted)[]).some((k) => info.config[k] !== wanted[k]);
    const subjectsNow = [...info.config.subjects, ...missing];
    if (missing.length) await jsm.streams.update(EVENTS_STREAM, { ...info.config, subjects: subjectsNow });
    if (!differs) return undefined;
    try {
      await jsm.streams.update(EVENTS_STREAM, { ...info.config, ...wanted, subjects: subjectsNow });
    } catch (e) {
      return `EVENTS stream limits not applied: ${(e as Error).message}`;
    }
  } catch (e) {
    if (!/stream not found/i.test((e as Error).message)) throw e;
    try {
      await jsm.streams.add({
        name: EVENTS_STREAM,
        subjects,
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        ...wanted,
        duplicate_window: 10 * 60 * 1e9,
      });
    } catch (addError) {
      // Another replica created it between our lookup and add.
      if (!/already in use/i.test((addError as Error).message)) throw addError;
    }
  }
  return undefined;
}
