import { NatsConnection, RetentionPolicy, StorageType } from 'nats';
import { EVENT_STREAM_SUBJECTS, EVENTS_STREAM } from '@app/contracts';

/** Creates the EVENTS stream when missing, or widens its subjects to the catalogue's. */
export async function ensureEventsStream(nc: NatsConnection): Promise<void> {
  const jsm = await nc.jetstreamManager();
  const subjects = [...EVENT_STREAM_SUBJECTS];
  try {
    const info = await jsm.streams.info(EVENTS_STREAM);
    const missing = subjects.filter((s) => !info.config.subjects.includes(s));
    if (missing.length)
      await jsm.streams.update(EVENTS_STREAM, { ...info.config, subjects: [...info.config.subjects, ...missing] });
  } catch (e) {
    if (!/stream not found/i.test((e as Error).message)) throw e;
    try {
      await jsm.streams.add({
        name: EVENTS_STREAM,
        subjects,
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        max_age: 30 * 24 * 3600 * 1e9,
        duplicate_window: 10 * 60 * 1e9,
      });
    } catch (addError) {
      // Another replica created it between our lookup and add.
      if (!/already in use/i.test((addError as Error).message)) throw addError;
    }
  }
}
