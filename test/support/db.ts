import { Client } from 'pg';

/** The rows of one statement on the database at `url`, on a connection of its own (closed after). */
export async function queryRows<T = Record<string, any>>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * Holds `table` of the database at `url` against writes (an EXCLUSIVE lock in an open transaction), so a
 * request that writes it waits in its own transaction until `release`.
 */
export async function holdTable(url: string, table: string): Promise<{ release(): Promise<void> }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}
