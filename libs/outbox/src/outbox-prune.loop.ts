import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { uuidv7Floor } from '@app/clock';
import { runStatement, statement } from '@app/database';
import { PeriodicLoop } from '@app/platform';

/** Published rows are kept this long for inspection, then deleted. */
export const OUTBOX_RETENTION_MS = 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60_000;
const BATCH = 1000;

/**
 * Rows are found by id: outbox ids are UUID v7, which sort by creation time, so "created before the cut-off"
 * is a range of the primary key and no further index is needed. Unpublished rows are never deleted.
 */
const PRUNE = statement(
  'outbox_prune',
  `DELETE FROM outbox WHERE id IN (
     SELECT id FROM outbox
     WHERE id < $1 AND published_at IS NOT NULL
     ORDER BY id
     LIMIT $2
     FOR UPDATE SKIP LOCKED)
   RETURNING id`,
);

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
    const deleted = await runStatement(this.dataSource, PRUNE, [uuidv7Floor(nowMs - OUTBOX_RETENTION_MS), BATCH]);
    return deleted.length;
  }
}
