import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every email the gateway sends, or tried to (docs/mail.md): to whom, which template, when, and what came of it.
 * The message itself (and the one-time link in it) is not kept.
 */
export class MailSends1769000700001 implements MigrationInterface {
  name = 'MailSends1769000700001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE mail_sends (
        id uuid PRIMARY KEY,
        to_address text NOT NULL,
        template text NOT NULL CHECK (template IN ('invitation', 'password_reset', 'card_update')),
        outcome text NOT NULL CHECK (outcome IN ('sent', 'failed', 'off')),
        message_id text,
        error text,
        created_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX mail_sends_created ON mail_sends (created_at DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE mail_sends');
  }
}
