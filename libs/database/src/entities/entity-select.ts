import { DataSource, EntityManager } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { runStatement, Statement, statement } from '../pipelined';

/**
 * A prepared SELECT of every column of an entity, `WHERE <where>` with $1… bound to the call's values,
 * answering entities built from the TypeORM metadata (column transformers apply): the read-side counterpart
 * of `entityInsert`, for a lookup on a hot path, where building the query through the ORM on every call
 * costs more than running it.
 */
export function entitySelect<T extends object>(
  target: new () => T,
  name: string,
  where: string,
): (on: EntityManager | DataSource, values: unknown[]) => Promise<T[]> {
  let prepared: { st: Statement; columns: ColumnMetadata[] } | undefined;
  return async (on, values) => {
    if (!prepared) {
      const meta = (on instanceof EntityManager ? on.connection : on).getMetadata(target);
      const columns = meta.columns;
      const list = columns.map((c) => `"${c.databaseName}"`).join(', ');
      prepared = { st: statement(name, `SELECT ${list} FROM ${meta.tableName} WHERE ${where}`), columns };
    }
    const { st, columns } = prepared;
    const rows = await runStatement(on, st, values);
    return rows.map((row) => {
      const entity = new target();
      for (const c of columns) c.setEntityValue(entity, fromColumn(c, row[c.databaseName]));
      return entity;
    });
  };
}

function fromColumn(column: ColumnMetadata, value: unknown): unknown {
  const transformer = column.transformer;
  return transformer && !Array.isArray(transformer) ? transformer.from(value) : value;
}
