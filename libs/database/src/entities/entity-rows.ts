import { EntityManager } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { deferStatement, gatherRow, Statement, statement } from '../pipelined';

/**
 * Multi-row counterparts of `entityInsert` for batch work (the renewal scheduler writes a claimed batch at
 * once): one statement for any number of rows, the rows sent as one jsonb array and read back by
 * `jsonb_to_recordset` with the entity's column types. Built from the TypeORM metadata on first use; deferred
 * to the commit inside `inTransaction`, errors through `mapError`. No rows: nothing is sent.
 */
export function entityInsertMany<T extends object>(
  target: new () => T,
  name: string,
): (manager: EntityManager, entities: readonly T[], mapError?: (e: unknown) => unknown) => Promise<void> {
  let prepared: Prepared | undefined;
  return async (manager, entities, mapError) => {
    if (!entities.length) return;
    prepared ??= prepare(manager, target, insertMany(name));
    await deferStatement(manager, prepared.st, [rowsJson(prepared.columns, entities)], mapError);
  };
}

/**
 * One entity's INSERT gathered with the others of its pipelined transaction into one multi-row statement sent
 * with the COMMIT (see gatherRow: nothing later in the transaction may read the row).
 */
export function entityInsertGathered<T extends object>(
  target: new () => T,
  name: string,
): (manager: EntityManager, entity: T, mapError?: (e: unknown) => unknown) => Promise<void> {
  let prepared: Prepared | undefined;
  return (manager, entity, mapError) => {
    prepared ??= prepare(manager, target, insertMany(name));
    return gatherRow(manager, prepared.st, entityRow(prepared.columns, entity), mapError);
  };
}

/** One entity's UPDATE of every column by its key, gathered as `entityInsertGathered` is. */
export function entityUpdateGathered<T extends object>(
  target: new () => T,
  name: string,
): (manager: EntityManager, entity: T) => Promise<void> {
  let prepared: Prepared | undefined;
  return (manager, entity) => {
    prepared ??= prepare(manager, target, updateMany(name), updatable);
    return gatherRow(manager, prepared.st, entityRow(prepared.columns, entity));
  };
}

/**
 * Updates every column of each entity by its primary key (one column), in one statement, except the columns
 * the entity marks `update: false` (written once, on insert); `also` adds assignments of columns the entity
 * does not map (`renewal_lease_until = NULL`), in the same row version.
 */
export function entityUpdateMany<T extends object>(
  target: new () => T,
  name: string,
  also?: string,
): (manager: EntityManager, entities: readonly T[]) => Promise<void> {
  let prepared: Prepared | undefined;
  return async (manager, entities) => {
    if (!entities.length) return;
    prepared ??= prepare(manager, target, updateMany(name, also), updatable);
    await deferStatement(manager, prepared.st, [rowsJson(prepared.columns, entities)]);
  };
}

type Build = (table: string, columns: ColumnMetadata[], recordset: string, key: ColumnMetadata) => Statement;

const insertMany =
  (name: string): Build =>
  (table, columns, recordset) => {
    const list = columns.map((c) => `"${c.databaseName}"`).join(', ');
    return statement(name, `INSERT INTO ${table} (${list}) SELECT ${list} FROM ${recordset}`);
  };

const updateMany =
  (name: string, also?: string): Build =>
  (table, columns, recordset, key) => {
    const set = columns
      .filter((c) => c !== key)
      .map((c) => `"${c.databaseName}" = v."${c.databaseName}"`)
      .concat(also ? [also] : [])
      .join(', ');
    return statement(
      name,
      `UPDATE ${table} t SET ${set} FROM ${recordset} WHERE t."${key.databaseName}" = v."${key.databaseName}"`,
    );
  };

interface Prepared {
  st: Statement;
  columns: ColumnMetadata[];
}

/** The columns an UPDATE writes: the key, and every column not marked `update: false`. */
const updatable = (c: ColumnMetadata): boolean => c.isUpdate || c.isPrimary;

function prepare<T extends object>(
  manager: EntityManager,
  target: new () => T,
  build: Build,
  keep: (c: ColumnMetadata) => boolean = () => true,
): Prepared {
  const meta = manager.connection.getMetadata(target);
  if (meta.primaryColumns.length !== 1) throw new Error(`${meta.tableName}: one primary key column expected`);
  const columns = meta.columns.filter(keep);
  const types = columns.map((c) => `"${c.databaseName}" ${sqlType(c)}`).join(', ');
  return {
    st: build(meta.tableName, columns, `jsonb_to_recordset($1::jsonb) AS v(${types})`, meta.primaryColumns[0]),
    columns,
  };
}

function sqlType(c: ColumnMetadata): string {
  const base = typeof c.type === 'string' ? c.type : 'text';
  const type = base === 'char' ? 'text' : base === 'int' ? 'integer' : base;
  return c.isArray ? `${type}[]` : type;
}

/** The rows as one JSON array keyed by column name; transformers apply, json/jsonb values stay nested. */
function rowsJson(columns: readonly ColumnMetadata[], entities: readonly object[]): string {
  return JSON.stringify(entities.map((entity) => entityRow(columns, entity)));
}

function entityRow(columns: readonly ColumnMetadata[], entity: object): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const c of columns) {
    let value: unknown = c.getEntityValue(entity);
    const transformer = c.transformer;
    if (transformer && !Array.isArray(transformer)) value = transformer.to(value);
    row[c.databaseName] = value ?? null;
  }
  return row;
}
