import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { runStatement, statement } from '@app/database';

/** One email sent (or not): to whom, which template, when, the outcome; never the message. */
export interface MailSend {
  id: string;
  to: string;
  template: string;
  outcome: string;
  messageId: string | null;
  error: string | null;
  at: Date;
}

const INSERT = statement(
  'mail_sends_insert',
  `INSERT INTO mail_sends (id, to_address, template, outcome, message_id, error, created_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7)`,
);

/** The gateway's record of the emails it sends (`mail_sends`). */
@Injectable()
export class MailSendsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(s: MailSend): Promise<void> {
    await runStatement(this.db, INSERT, [s.id, s.to, s.template, s.outcome, s.messageId, s.error, s.at]);
  }
}
