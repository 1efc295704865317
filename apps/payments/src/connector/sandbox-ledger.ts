import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { runStatement, statement } from '@app/database';
import { AcquirerOutcome, ModificationOutcome } from './connector';

export type SandboxAnswer = AcquirerOutcome | ModificationOutcome;

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

const REMEMBER = statement(
  'sandbox_ledger_remember',
  `INSERT INTO sandbox_acquirer_ledger (reference, answer) VALUES ($1, $2)
   ON CONFLICT (reference) DO NOTHING RETURNING answer`,
);
const FIND = statement('sandbox_ledger_find', 'SELECT answer FROM sandbox_acquirer_ledger WHERE reference = $1');

/**
 * The sandbox acquirer's own table of answered references (in the payments database, but the acquirer's
 * record, not the payment's): it outlives a crash of the payments process, as a real acquirer's does, so the
 * recovery sweep's lookup finds what it did. Written as the acquirer acts, before it answers.
 */
@Injectable()
export class DatabaseLedger implements SandboxLedger {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async once(reference: string, fresh: SandboxAnswer): Promise<SandboxAnswer> {
    const inserted = await runStatement<{ answer: SandboxAnswer }>(this.db, REMEMBER, [
      reference,
      JSON.stringify(fresh),
    ]);
    if (inserted.length) return fresh;
    return (await this.find(reference)) ?? fresh;
  }

  async find(reference: string): Promise<SandboxAnswer | undefined> {
    const rows = await runStatement<{ answer: SandboxAnswer }>(this.db, FIND, [reference]);
    return rows[0]?.answer;
  }
}
