import { EntityManager } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { deferStatement, runStatement, Statement, statement } from '../pipelined';

/**
 * A prepared INSERT of every column of an entity, built from its TypeORM metadata on first use (so the entity
 * stays the one description of the table): column transformers apply, json/jsonb values are serialized.
 * Inside `inTransaction` it is deferred to the commit (see deferStatement), errors through `mapError`;
 * `{ awaited: true }` sends it and waits for its answer there too (the caller hears a failure where it inserts).
 */
export function entityInsert<T extends object>(
  target: new () => T,
  name: string,
  o: { awaited?: boolean } = {},
): (manager: EntityManager, entity: T, mapError?: (e: unknown) => unknown) => Promise<void> {
  let prepared: { st: Statement; columns: ColumnMetadata[] } | undefined;
  return (manager, entity, mapError) => {
    if (!prepared) {
      const meta = manager.connection.getMetadata(target);
      const columns = meta.columns;
      const text = `INSERT INTO ${meta.tableName} (${columns.map((c) => `"${c.databaseName}"`).join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`;
      prepared = { st: statement(name, text), columns };
    }
    const values = prepared.columns.map((c) => columnValue(c, entity));
    if (!o.awaited) return deferStatement(manager, prepared.st, values, mapError);
    return runStatement(manager, prepared.st, values).then(
      () => undefined,
      (e: unknown) => {
        throw mapError ? mapError(e) : e;
      },
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
