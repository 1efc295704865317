import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { uuidv7Floor } from '@app/clock';
import { PeriodicLoop } from '@app/platform';
import { pruneOutbox } from './outbox.repository';

/** Published rows are kept this long for inspection, then deleted. */
export const OUTBOX_RETENTION_MS = 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60_000;
const BATCH = 1000;

/** Deletes published outbox rows older than the retention, in batches (replicas side by side: SKIP LOCKED). */
@Injectable()
export class OutboxPruneLoop extends PeriodicLoop {
  readonly loopName = 'outbox_prune';

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  protected everyMs(): number {
    return PRUNE_EVERY_MS;
  }

  protected async work(): Promise<boolean> {
    return (await this.pruneOnce()) >= BATCH;
  }

  /** One batch; answers how many rows went. Uses real time: the retention is about operations, not business. */
  async pruneOnce(nowMs = Date.now()): Promise<number> {
    return pruneOutbox(this.dataSource, uuidv7Floor(nowMs - OUTBOX_RETENTION_MS), BATCH);
  }
}
