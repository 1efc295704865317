import { DataSource } from 'typeorm';

/** The server's `autovacuum` setting ('on' or 'off'). */
export async function autovacuumSetting(ds: DataSource): Promise<string> {
  const [row] = (await ds.query('SHOW autovacuum')) as Array<{ autovacuum: string }>;
  return row.autovacuum;
}

/**
 * Autovacuum keeps the planner's statistics and the tables' free space current as they grow; without it the
 * queues and keyed tables of every service slow down run after run. Off, a start says so, and refuses when
 * `refuse` (production, unless ALLOW_AUTOVACUUM_OFF accepts a server vacuumed and analyzed some other way).
 * Answers nothing when autovacuum is on.
 */
export function autovacuumCheck(
  setting: string,
  app: string,
  refuse: boolean,
): { refuse: boolean; message: string } | undefined {
  if (setting === 'on') return undefined;
  const message =
    `PostgreSQL runs with autovacuum ${setting} (the ${app} database): table statistics go stale and dead rows ` +
    'pile up; turn it on (ALTER SYSTEM SET autovacuum = on; SELECT pg_reload_conf();)';
  return refuse
    ? { refuse, message: `${message}, or set ALLOW_AUTOVACUUM_OFF=true to start anyway` }
    : { refuse, message };
}
