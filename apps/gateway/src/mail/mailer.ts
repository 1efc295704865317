import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { Logger } from 'pino';
import { Clock, uuidv7 } from '@app/clock';
import { LOGGER } from '@app/observability';
import { MAIL_OPTIONS, MailOptions } from './mail-options';
import { MailSendsRepository } from './mail-sends.repository';
import type { RenderedMail } from './mail-templates';

/** What came of a send: delivered to the SMTP server, refused or unreachable, or mail is off (SMTP_HOST unset). */
export type MailOutcome = 'sent' | 'failed' | 'off';

/** Longest SMTP error text kept with a failed send. */
const ERROR_CHARS = 500;

/**
 * Sends the platform's emails over SMTP (nodemailer) and records every send in `mail_sends`: to whom, which
 * template, when, the outcome, never the message (its link is a one-time secret). A send never throws: the
 * change that asked for it is committed already, and the caller tells its user what the outcome was.
 */
@Injectable()
export class Mailer implements OnModuleDestroy {
  private readonly transport: Transporter<SMTPTransport.SentMessageInfo> | null;

  constructor(
    @Inject(MAIL_OPTIONS) private readonly options: MailOptions,
    private readonly sends: MailSendsRepository,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.transport = options.smtp ? createTransport(options.smtp) : null;
    if (!this.transport) this.logger.warn('Mail is off (SMTP_HOST unset): invitations and resets are not emailed');
  }

  get enabled(): boolean {
    return this.transport !== null;
  }

  async send(to: string, mail: RenderedMail): Promise<MailOutcome> {
    let outcome: MailOutcome = 'off';
    let messageId: string | null = null;
    let error: string | null = null;
    if (this.transport) {
      try {
        const info = await this.transport.sendMail({
          from: this.options.from,
          to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
        outcome = 'sent';
        messageId = info.messageId ?? null;
      } catch (e) {
        outcome = 'failed';
        error = (e instanceof Error ? e.message : String(e)).slice(0, ERROR_CHARS);
        this.logger.warn({ template: mail.template, error }, 'An email could not be sent');
      }
    }
    const at = this.clock.now();
    await this.sends.insert({ id: uuidv7(), to, template: mail.template, outcome, messageId, error, at });
    return outcome;
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}
