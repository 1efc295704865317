import { AddressInfo } from 'node:net';
import { simpleParser, ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { waitUntil } from './wait';

export interface SunkMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Whether the client signed in, and as whom. */
  user: string | null;
}

/**
 * A local SMTP server that keeps what it is sent: the tests point SMTP_HOST/SMTP_PORT at it and read the
 * messages the gateway really sent (over a real SMTP conversation, parsed by mailparser). `refuse` makes it
 * answer every message 550, as a server refusing a recipient does.
 */
export class SmtpSink {
  readonly messages: SunkMail[] = [];
  refuse = false;
  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
    readonly credentials?: { user: string; pass: string },
  ) {}

  static async start(o: { credentials?: { user: string; pass: string } } = {}): Promise<SmtpSink> {
    const held: { sink?: SmtpSink } = {};
    const server = new SMTPServer({
      secure: false,
      disabledCommands: o.credentials ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
      authOptional: !o.credentials,
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        const ok = auth.username === o.credentials?.user && auth.password === o.credentials?.pass;
        callback(ok ? null : new Error('Invalid username or password'), ok ? { user: auth.username } : undefined);
      },
      onData(stream, session, callback) {
        if (held.sink?.refuse) {
          stream.resume();
          stream.on('end', () => callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 })));
          return;
        }
        simpleParser(stream)
          .then((parsed: ParsedMail) => {
            held.sink!.messages.push({
              from: parsed.from?.text ?? '',
              to: session.envelope.rcptTo.map((r) => r.address),
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              user: typeof session.user === 'string' ? session.user : null,
            });
            callback();
          })
          .catch((e: Error) => callback(e));
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const port = (server.server.address() as AddressInfo).port;
    held.sink = new SmtpSink(server, port, o.credentials);
    return held.sink;
  }

  /** The gateway settings that send to this sink. */
  env(): Record<string, string> {
    return {
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(this.port),
      SMTP_TLS: 'none',
      MAIL_FROM: 'Payments <no-reply@payments.test>',
      ...(this.credentials ? { SMTP_USER: this.credentials.user, SMTP_PASSWORD: this.credentials.pass } : {}),
    };
  }

  /** The first message to `address` (case-insensitive) whose subject matches, waiting for it to arrive. */
  async waitFor(address: string, subject: RegExp = /./): Promise<SunkMail> {
    const match = () =>
      this.messages.find((m) => m.to.some((t) => t.toLowerCase() === address.toLowerCase()) && subject.test(m.subject));
    await waitUntil(`an email to ${address}`, () => Promise.resolve(Boolean(match())), 10_000);
    return match()!;
  }

  /** Every message to `address`. */
  to(address: string): SunkMail[] {
    return this.messages.filter((m) => m.to.some((t) => t.toLowerCase() === address.toLowerCase()));
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The first link of a plain-text email that starts with `prefix`. */
export function linkIn(text: string, prefix: string): string {
  const found = text.split(/\s+/).find((w) => w.startsWith(prefix));
  if (!found) throw new Error(`No link starting ${prefix} in: ${text}`);
  return found;
}
