import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { GatewayConfig } from '../config';

/** How the gateway reaches its SMTP server (docs/mail.md); `smtp` is null when mail is off (SMTP_HOST unset). */
export interface MailOptions {
  smtp: SMTPTransport.Options | null;
  from: string;
}

export const MAIL_OPTIONS = Symbol('MAIL_OPTIONS');

/** A server that does not answer within this is a failed send, not a hung request. */
const SMTP_TIMEOUT_MS = 10_000;

export function mailOptionsOf(config: GatewayConfig): MailOptions {
  const from = config.MAIL_FROM ?? 'Payments <no-reply@localhost>';
  if (!config.SMTP_HOST) return { smtp: null, from };
  const tls = config.SMTP_TLS;
  return {
    from,
    smtp: {
      host: config.SMTP_HOST,
      port: config.SMTP_PORT,
      // tls: TLS from the first byte; starttls: the upgrade is required (a server without it is refused);
      // none: plain text, never upgraded (a local sink).
      secure: tls === 'tls',
      requireTLS: tls === 'starttls',
      ignoreTLS: tls === 'none',
      auth: config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASSWORD ?? '' } : undefined,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    },
  };
}
