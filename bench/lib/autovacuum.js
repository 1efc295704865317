'use strict';

const { Client } = require('pg');

/**
 * Turns autovacuum on for the PostgreSQL server at `pgBase` (postgres://user@host:port) when it is off, as the
 * services expect (they warn, or in production refuse to start, without it): ALTER SYSTEM and a reload, no
 * restart. Answers what it found: 'on', 'turned on', or the reason it could not (a role without the right).
 */
async function turnOnAutovacuum(pgBase) {
  const client = new Client({ connectionString: `${pgBase}/postgres` });
  await client.connect();
  try {
    const setting = async () => (await client.query('SHOW autovacuum')).rows[0].autovacuum;
    if ((await setting()) === 'on') return 'on';
    try {
      await client.query('ALTER SYSTEM SET autovacuum = on');
      await client.query('SELECT pg_reload_conf()');
    } catch (e) {
      return `still off: ${e.message}`;
    }
    // The reload is signalled, not awaited: a new session reads the setting once the server has applied it.
    for (let i = 0; i < 50; i++) {
      const probe = new Client({ connectionString: `${pgBase}/postgres` });
      await probe.connect();
      const { rows } = await probe.query('SHOW autovacuum').finally(() => probe.end());
      if (rows[0].autovacuum === 'on') return 'turned on';
      await new Promise((r) => setTimeout(r, 100));
    }
    return 'still off after the reload';
  } finally {
    await client.end();
  }
}

module.exports = { turnOnAutovacuum };

if (require.main === module) {
  turnOnAutovacuum(process.argv[2] || 'postgres://postgres@127.0.0.1:5432').then(
    (state) => process.stdout.write(`autovacuum: ${state}\n`),
    (e) => {
      process.stderr.write(`autovacuum: ${e.message}\n`);
      process.exit(1);
    },
  );
}
