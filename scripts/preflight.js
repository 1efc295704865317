#!/usr/bin/env node
// Before the tests: PostgreSQL and NATS must answer. If one does not, stop at once and say how to start it.
const { Client } = require('pg');
const { connect } = require('nats');

const pgUrl = `${process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432'}/postgres`;
const natsUrl = process.env.TEST_NATS_URL ?? process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

async function checkPostgres() {
  const client = new Client({ connectionString: pgUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (e) {
    return `PostgreSQL does not answer at ${pgUrl.replace(/\/postgres$/, '')} (${e.message}).\n  Start it: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function checkNats() {
  try {
    const nc = await connect({ servers: natsUrl, timeout: 3000, reconnect: false });
    await nc.jetstreamManager().catch(() => {
      throw new Error('JetStream is not enabled (start nats-server with -js)');
    });
    await nc.close();
    return null;
  } catch (e) {
    return `NATS does not answer at ${natsUrl} (${e.message}).\n  Start it: start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log`;
  }
}

Promise.all([checkPostgres(), checkNats()]).then((problems) => {
  const found = problems.filter(Boolean);
  if (found.length) {
    console.error(`Cannot run the tests:\n- ${found.join('\n- ')}`);
    process.exit(1);
  }
});
