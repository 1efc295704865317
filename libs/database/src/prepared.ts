import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

/**
 * A named SQL statement for the hot paths. PostgreSQL parses and plans it once per connection and the
 * driver sends only Bind/Execute after that, and the call skips TypeORM's query builder: a purchase spends
 * its time in the acquirer and the commit, not in building SQL text.
 */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

const declared = new Map<string, string>();

/** Declares a statement once, at module load; a second text under the same name is a programming error. */
export function statement(name: string, text: string): Statement {
  const earlier = declared.get(name);
  if (earlier !== undefined && earlier !== text) throw new Error(`SQL statement "${name}" declared twice`);
  declared.set(name, text);
  return { name, text };
}

/**
 * Runs a statement on the caller's transaction (an EntityManager from `DataSource.transaction`) or, given the
 * DataSource, on any pooled connection. Answers the rows; errors are the driver's (`code`, `constraint`).
 */
export async function runStatement<R extends QueryResultRow = QueryResultRow>(
  on: EntityManager | DataSource,
  st: Statement,
  values: unknown[],
): Promise<R[]> {
  const client = on instanceof EntityManager && on.queryRunner ? await on.queryRunner.connect() : poolOf(on);
  const result = await (client as PoolClient).query<R>({ name: st.name, text: st.text, values });
  return result.rows;
}

function poolOf(on: EntityManager | DataSource): Pool {
  const source = on instanceof DataSource ? on : on.connection;
  return (source.driver as unknown as { master: Pool }).master;
}

/** Name of the unique constraint a statement broke, if that is what failed (TypeORM-wrapped or raw). */
export function uniqueViolation(e: unknown): string | undefined {
  const cause = (e as { driverError?: unknown } | null)?.driverError ?? e;
  const driver = cause as { code?: string; constraint?: string } | null;
  return driver?.code === '23505' ? (driver.constraint ?? '') : undefined;
}

/**
 * A prepared INSERT of every column of an entity, built from its TypeORM metadata on first use (so the entity
 * stays the one description of the table): column transformers apply, json/jsonb values are serialized.
 */
export function entityInsert<T extends object>(
  target: new () => T,
  name: string,
): (manager: EntityManager, entity: T) => Promise<void> {
  let prepared: { st: Statement; columns: ColumnMetadata[] } | undefined;
  return async (manager, entity) => {
    if (!prepared) {
      const meta = manager.connection.getMetadata(target);
      const columns = meta.columns;
      const text = `INSERT INTO ${meta.tableName} (${columns.map((c) => `"${c.databaseName}"`).join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`;
      prepared = { st: statement(name, text), columns };
    }
    await runStatement(
      manager,
      prepared.st,
      prepared.columns.map((c) => columnValue(c, entity)),
    );
  };
}

function columnValue(column: ColumnMetadata, entity: object): unknown {
  let value: unknown = column.getEntityValue(entity);
  const transformer = column.transformer;
  if (transformer && !Array.isArray(transformer)) value = transformer.to(value);
  if (value === undefined) return null;
  if (value !== null && (column.type === 'jsonb' || column.type === 'json')) return JSON.stringify(value);
  return value;
}
