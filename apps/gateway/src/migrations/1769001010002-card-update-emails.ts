import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A merchant's choice to email card-update links to its customers (off by default), and the event a link was
 * emailed for: a redelivered event finds its link made and sends nothing twice.
 */
export class CardUpdateEmails1769001010002 implements MigrationInterface {
  name = 'CardUpdateEmails1769001010002';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE merchants ADD COLUMN card_update_emails boolean NOT NULL DEFAULT false');
    await q.query('ALTER TABLE card_update_links ADD COLUMN event_id uuid UNIQUE');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE card_update_links DROP COLUMN event_id');
    await q.query('ALTER TABLE merchants DROP COLUMN card_update_emails');
  }
}
