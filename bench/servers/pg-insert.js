'use strict';

/**
 * Baseline: bare Fastify doing one Postgres INSERT per request, shaped like a payment row (unique order code
 * per merchant, bigint amount, JSON details) with the same pool size as the services (20). It bounds what a
 * purchase can reach on this machine: a purchase does at least this much database work.
 */
const crypto = require('node:crypto');
const fastify = require('fastify');
const { Pool } = require('pg');
const { announce, fail } = require('./common');

const DDL = `CREATE TABLE IF NOT EXISTS bench_payment (
  id uuid PRIMARY KEY,
  merchant_code text NOT NULL,
  order_code text NOT NULL,
  amount_value bigint NOT NULL,
  currency char(3) NOT NULL,
  status text NOT NULL,
  details jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (merchant_code, order_code)
)`;

const INSERT = `INSERT INTO bench_payment (id, merchant_code, order_code, amount_value, currency, status, details)
  VALUES ($1, $2, $3, $4, $5, 'captured', $6) RETURNING id, status, created_at`;

async function main() {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
  await pool.query(DDL);
  const app = fastify({ logger: false });
  app.post('/purchase', async (request, reply) => {
    const body = request.body || {};
    if (typeof body.orderCode !== 'string' || !body.amount) {
      return reply.code(400).send({ error: { code: 'VALIDATION_FAILED' } });
    }
    const { rows } = await pool.query(INSERT, [
      crypto.randomUUID(),
      String(body.merchantCode),
      body.orderCode,
      body.amount.value,
      body.amount.currency,
      JSON.stringify({ brand: 'visa', last4: '1111' }),
    ]);
    return { id: rows[0].id, orderCode: body.orderCode, status: rows[0].status, createdAt: rows[0].created_at };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  announce(app.server.address().port, async () => {
    await app.close();
    await pool.end();
  });
}

main().catch(fail);
