import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Environment } from '@app/contracts';
import { inTransaction, runStatement, statement } from '@app/database';
import type { KeyType } from './api-key.entity';

/** A key as the admin API and the dashboard show it (never its hash). */
export interface KeyRecord {
  id: string;
  name: string | null;
  keyHint: string;
  type: KeyType;
  environment: Environment;
  merchantCodes: string[];
  createdAt: Date;
  revokedAt: Date | null;
}

export interface NewKey {
  id: string;
  keyHash: string;
  keyHint: string;
  name: string | null;
  type: KeyType;
  environment: Environment;
  /** The ids (uuid) of the merchants it serves. */
  merchantIds: string[];
}

/** The principal's row of a key: its merchants' codes and integer ids, in code order. */
export interface KeyPrincipalRow {
  id: string;
  type: KeyType;
  environment: Environment;
  codes: string[];
  ids: string[];
}

const INSERT = statement(
  'api_keys_insert',
  `INSERT INTO api_keys (id, key_hash, key_hint, name, type, environment) VALUES ($1, $2, $3, $4, $5, $6)
   RETURNING created_at AS "createdAt"`,
);
const INSERT_MERCHANTS = statement(
  'api_key_merchants_insert',
  'INSERT INTO api_key_merchants (key_id, merchant_id) SELECT $1, unnest($2::uuid[])',
);
const RECORD = `SELECT k.id, k.name, k.key_hint AS "keyHint", k.type, k.environment, k.created_at AS "createdAt",
         k.revoked_at AS "revokedAt",
         coalesce(array_agg(m.merchant_code ORDER BY m.merchant_code) FILTER (WHERE m.id IS NOT NULL), '{}')
           AS "merchantCodes"
    FROM api_keys k
    LEFT JOIN api_key_merchants km ON km.key_id = k.id
    LEFT JOIN merchants m ON m.id = km.merchant_id`;
const BY_ID = statement('api_keys_by_id', `${RECORD} WHERE k.id = $1 GROUP BY k.id`);
const NEWEST = statement(
  'api_keys_newest',
  `${RECORD}
   WHERE $1::text IS NULL
      OR k.id IN (SELECT key_id FROM api_key_merchants x JOIN merchants y ON y.id = x.merchant_id
                   WHERE y.merchant_code = $1)
   GROUP BY k.id ORDER BY k.created_at DESC LIMIT $2`,
);
const REVOKE = statement(
  'api_keys_revoke',
  'UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL',
);
const BY_HASH = statement(
  'api_keys_by_hash',
  `SELECT k.id, k.type, k.environment, array_agg(m.merchant_code ORDER BY m.merchant_code) AS codes,
          array_agg(m.merchant_id::text ORDER BY m.merchant_code) AS ids
     FROM api_keys k JOIN api_key_merchants km ON km.key_id = k.id JOIN merchants m ON m.id = km.merchant_id
    WHERE k.key_hash = $1 AND k.revoked_at IS NULL
    GROUP BY k.id`,
);

const MINTING_KEY_ACTIVE = statement(
  'api_keys_minting_key_active',
  `SELECT 1 FROM api_keys k
     JOIN api_key_merchants km ON km.key_id = k.id JOIN merchants m ON m.id = km.merchant_id
    WHERE k.id::text = $1 AND k.revoked_at IS NULL AND k.type = 'private' AND k.environment = $2
      AND m.merchant_code = $3`,
);

/** The gateway's API keys (api_keys, and the merchants each serves in api_key_merchants). */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Stores the key and its merchants in one transaction; answers when it was created. */
  insert(key: NewKey): Promise<Date> {
    return inTransaction(this.db, async (m) => {
      const values = [key.id, key.keyHash, key.keyHint, key.name, key.type, key.environment];
      const [{ createdAt }] = await runStatement<{ createdAt: Date }>(m, INSERT, values);
      await runStatement(m, INSERT_MERCHANTS, [key.id, key.merchantIds]);
      return createdAt;
    });
  }

  async find(id: string): Promise<KeyRecord | undefined> {
    const [row] = await runStatement<KeyRecord & Record<string, unknown>>(this.db, BY_ID, [id]);
    return row;
  }

  /** The newest keys first, those serving `merchantCode` only when it is given. */
  newest(limit: number, merchantCode?: string): Promise<KeyRecord[]> {
    return runStatement<KeyRecord & Record<string, unknown>>(this.db, NEWEST, [merchantCode ?? null, limit]);
  }

  /** Marks the key revoked now, unless it already is. */
  async revoke(id: string): Promise<void> {
    await runStatement(this.db, REVOKE, [id]);
  }

  /** The unrevoked key with this hash, with its merchants; undefined when there is none. */
  async byHash(hash: string): Promise<KeyPrincipalRow | undefined> {
    const [row] = await runStatement<KeyPrincipalRow & Record<string, unknown>>(this.db, BY_HASH, [hash]);
    return row;
  }

  /** Whether the key is an unrevoked private key of this environment that still serves the merchant. */
  async activePrivateKeyOf(keyId: string, environment: Environment, merchantCode: string): Promise<boolean> {
    const rows = await runStatement(this.db, MINTING_KEY_ACTIVE, [keyId, environment, merchantCode]);
    return rows.length > 0;
  }
}
