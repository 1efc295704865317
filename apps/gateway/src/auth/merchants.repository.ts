import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { entitySelect, inTransaction, runStatement, statement } from '@app/database';
import { Merchant } from './merchant.entity';

const INSERT = statement(
  'merchants_insert',
  `INSERT INTO merchants (id, merchant_code, name) VALUES ($1, $2, $3)
   ON CONFLICT (merchant_code) DO NOTHING
   RETURNING id, merchant_code AS "merchantCode", merchant_id AS "merchantId", name, created_at AS "createdAt"`,
);
const COUNT = statement('merchants_count', 'SELECT count(*)::int AS n FROM merchants');
const ORIGINS = statement(
  'merchants_allowed_origins',
  'SELECT allowed_origins AS origins FROM merchants WHERE merchant_code = $1',
);
const SET_ORIGINS = statement(
  'merchants_set_allowed_origins',
  `WITH updated AS (
     UPDATE merchants SET allowed_origins = $2 WHERE merchant_code = $1 RETURNING allowed_origins
   ) SELECT allowed_origins AS origins FROM updated`,
);
const DEMO_LOCK = statement('merchants_demo_seed_lock', "SELECT pg_advisory_xact_lock(hashtext('gateway:demo-seed'))");
const INSERT_DEMO = statement(
  'merchants_insert_demo',
  "INSERT INTO merchants (id, merchant_code, name) VALUES (gen_random_uuid(), 'demo', 'Demo merchant')",
);
const newestFirst = entitySelect(Merchant, 'merchants_newest', 'true ORDER BY created_at DESC LIMIT $1');
const byCodes = entitySelect(Merchant, 'merchants_by_codes', 'merchant_code = ANY($1)');

/** The gateway's merchants table. */
@Injectable()
export class MerchantsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The new merchant, or null when its code is taken. */
  async insert(id: string, merchantCode: string, name: string): Promise<Merchant | null> {
    const [row] = await runStatement(this.db, INSERT, [id, merchantCode, name]);
    return row ? ({ ...row, merchantId: Number(row.merchantId) } as Merchant) : null;
  }

  newest(limit: number): Promise<Merchant[]> {
    return newestFirst(this.db, [limit]);
  }

  async count(): Promise<number> {
    const [{ n }] = await runStatement<{ n: number }>(this.db, COUNT, []);
    return n;
  }

  /**
   * On an empty table, the `demo` merchant; answers whether it made it. Several replicas may start at once: one
   * seeds, under a transaction-scoped advisory lock.
   */
  insertDemoIfEmpty(): Promise<boolean> {
    return inTransaction(this.db, async (m) => {
      await runStatement(m, DEMO_LOCK, []);
      const [{ n }] = await runStatement<{ n: number }>(m, COUNT, []);
      if (n > 0) return false;
      await runStatement(m, INSERT_DEMO, []);
      return true;
    });
  }

  byCodes(codes: readonly string[]): Promise<Merchant[]> {
    return byCodes(this.db, [codes]);
  }

  /** The merchant's allowed origins; undefined for an unknown merchant. */
  async allowedOrigins(merchantCode: string): Promise<string[] | undefined> {
    const [row] = await runStatement<{ origins: string[] }>(this.db, ORIGINS, [merchantCode]);
    return row?.origins;
  }

  /** Replaces the allowed origins; answers them, or undefined for an unknown merchant. */
  async setAllowedOrigins(merchantCode: string, origins: readonly string[]): Promise<string[] | undefined> {
    const [row] = await runStatement<{ origins: string[] }>(this.db, SET_ORIGINS, [merchantCode, origins]);
    return row?.origins;
  }
}
