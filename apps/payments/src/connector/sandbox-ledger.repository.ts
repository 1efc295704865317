import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { runAsyncCommit, runStatement, statement } from '@app/database';

const REMEMBER = statement(
  'sandbox_ledger_remember',
  `INSERT INTO sandbox_acquirer_ledger (reference, answer)
   SELECT r.reference, a.answer
   FROM unnest($1::text[]) WITH ORDINALITY AS r(reference, i)
   JOIN jsonb_array_elements($2::jsonb) WITH ORDINALITY AS a(answer, i) USING (i)
   ON CONFLICT (reference) DO NOTHING RETURNING reference`,
);
const FIND = statement('sandbox_ledger_find', 'SELECT answer FROM sandbox_acquirer_ledger WHERE reference = $1');

/** The sandbox acquirer's table of answered references (`sandbox_acquirer_ledger`, see DatabaseLedger). */
@Injectable()
export class SandboxLedgerRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Stores each reference's answer unless one is stored already; answers the references stored now. Committed
   * without waiting for the WAL flush (see DatabaseLedger).
   */
  async remember<A>(references: string[], answers: A[]): Promise<string[]> {
    const stored = await runAsyncCommit<{ reference: string }>(this.db, REMEMBER, [
      references,
      // One JSON array, not a jsonb[]: the driver would escape every quote of every answer for an array literal.
      JSON.stringify(answers),
    ]);
    return stored.map((r) => r.reference);
  }

  async find<A>(reference: string): Promise<A | undefined> {
    const rows = await runStatement<{ answer: A }>(this.db, FIND, [reference]);
    return rows[0]?.answer;
  }
}
