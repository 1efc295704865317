import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A key's stored answer is kept as `json` (the text as written, validated) instead of `jsonb`, as the outbox's
 * envelope is: it is only ever read back whole for a replay, so parsing every answer into jsonb when it is
 * stored (32 payment responses in one statement for a group of renewal charges) was wasted work.
 */
export class IdempotencyJsonAnswer1766500000000 implements MigrationInterface {
  name = 'IdempotencyJsonAnswer1766500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE json USING response_body::json');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE jsonb USING response_body::jsonb');
  }
}
