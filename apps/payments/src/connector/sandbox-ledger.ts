import { Injectable } from '@nestjs/common';
import { GroupCommit } from '@app/database';
import { AuthorizationOutcome, ModificationOutcome } from './provider-connector';
import { SandboxLedgerRepository } from './sandbox-ledger.repository';
import type { SandboxFailingOperation } from './sandbox-cards';

/** An authorization's (or 3DS completion's) answer, or a capture's, refund's or cancel's with its operation. */
export type SandboxAnswer = AuthorizationOutcome | { operation: SandboxFailingOperation; outcome: ModificationOutcome };

/**
 * What the sandbox acquirer answered, by request reference: a repeated reference gets the first answer again
 * (as an acquirer de-duplicates on the merchant's reference), and a lookup tells whether it acted at all.
 */
export interface SandboxLedger {
  /** The answer already given to `reference`, else `fresh` (now remembered). */
  once(reference: string, fresh: SandboxAnswer): Promise<SandboxAnswer>;
  find(reference: string): Promise<SandboxAnswer | undefined>;
}

const MEMORY = 10_000;

/** The last 10,000 answers of this process: for unit tests and test doubles, not for crash recovery. */
export class MemoryLedger implements SandboxLedger {
  private readonly answered = new Map<string, SandboxAnswer>();

  once(reference: string, fresh: SandboxAnswer): Promise<SandboxAnswer> {
    const earlier = this.answered.get(reference);
    if (earlier) return Promise.resolve(earlier);
    if (this.answered.size >= MEMORY) this.answered.delete(this.answered.keys().next().value!);
    this.answered.set(reference, fresh);
    return Promise.resolve(fresh);
  }

  find(reference: string): Promise<SandboxAnswer | undefined> {
    return Promise.resolve(this.answered.get(reference));
  }
}

/**
 * The sandbox acquirer's own table of answered references (in the payments database, but the acquirer's
 * record, not the payment's): it outlives a crash of the payments process, as a real acquirer's does, so the
 * recovery sweep's lookup finds what it did. An answer is stored before it is given. Calls that arrive while a
 * write is on its way are stored together in the next one (`GroupCommit`, one write at a time: one statement
 * and one commit for many payments, as the sandbox must not cost the purchase path a commit per payment).
 */
@Injectable()
export class DatabaseLedger implements SandboxLedger {
  private readonly writes = new GroupCommit<null, { reference: string; fresh: SandboxAnswer }, SandboxAnswer>(
    (_none, entries) => this.write(entries),
    () => '',
    1,
    10_000,
  );

  constructor(private readonly rows: SandboxLedgerRepository) {}

  once(reference: string, fresh: SandboxAnswer): Promise<SandboxAnswer> {
    return this.writes.submit(null, { reference, fresh });
  }

  find(reference: string): Promise<SandboxAnswer | undefined> {
    return this.rows.find<SandboxAnswer>(reference);
  }

  /** Each entry's answer: its own if stored now, else the one stored earlier under its reference. */
  private async write(batch: Array<{ reference: string; fresh: SandboxAnswer }>): Promise<SandboxAnswer[]> {
    // A reference twice in one batch: the first one is the answer (as if it had been written first).
    const first = new Map<string, SandboxAnswer>();
    for (const p of batch) if (!first.has(p.reference)) first.set(p.reference, p.fresh);
    // Committed without waiting for the WAL flush: the answer is stored (any process sees it) before it is
    // given, and it is durable by the time anything depends on it, since the payment's record commits later in
    // the same WAL and waits for its flush, which carries this write too. A database crash can lose it only
    // with the record that would follow: the recovery sweep then finds no answer and releases the
    // reservation, as if the sandbox had never been asked. One WAL flush less on every purchase's path.
    const inserted = new Set(await this.rows.remember([...first.keys()], [...first.values()]));
    return Promise.all(
      batch.map(async (p) =>
        inserted.has(p.reference)
          ? first.get(p.reference)!
          : ((await this.find(p.reference)) ?? first.get(p.reference)!),
      ),
    );
  }
}
