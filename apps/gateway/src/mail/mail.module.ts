import { Module } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config';
import { MAIL_OPTIONS, mailOptionsOf } from './mail-options';
import { MailSendsRepository } from './mail-sends.repository';
import { Mailer } from './mailer';

/** The gateway's mail (docs/mail.md): one SMTP transport and its outbox of sent mail. */
@Module({
  providers: [
    { provide: MAIL_OPTIONS, inject: [GATEWAY_CONFIG], useFactory: mailOptionsOf },
    MailSendsRepository,
    Mailer,
  ],
  exports: [Mailer],
})
export class MailModule {}
