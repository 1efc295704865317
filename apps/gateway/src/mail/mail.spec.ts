import { loadGatewayConfig } from '../config';
import { mailOptionsOf } from './mail-options';
import { escapeHtml, invitationMail, passwordResetMail } from './mail-templates';

describe('mail settings and templates', () => {
  const configOf = (env: Record<string, string>) => loadGatewayConfig({ NODE_ENV: 'test', ...env });

  it('mail is off without SMTP_HOST; SMTP_TLS maps to nodemailer’s secure, requireTLS and ignoreTLS', () => {
    expect(mailOptionsOf(configOf({})).smtp).toBeNull();
    const starttls = mailOptionsOf(configOf({ SMTP_HOST: 'smtp.example.net' })).smtp!;
    expect(starttls).toMatchObject({ host: 'smtp.example.net', port: 587, secure: false, requireTLS: true });
    expect(starttls.auth).toBeUndefined();
    const tls = mailOptionsOf(
      configOf({
        SMTP_HOST: 'smtp.example.net',
        SMTP_PORT: '465',
        SMTP_TLS: 'tls',
        SMTP_USER: 'u',
        SMTP_PASSWORD: 'p',
      }),
    ).smtp!;
    expect(tls).toMatchObject({ port: 465, secure: true, requireTLS: false, auth: { user: 'u', pass: 'p' } });
    expect(mailOptionsOf(configOf({ SMTP_HOST: 'localhost', SMTP_TLS: 'none' })).smtp).toMatchObject({
      secure: false,
      requireTLS: false,
      ignoreTLS: true,
    });
    expect(() => configOf({ SMTP_TLS: 'ssl' })).toThrow(/SMTP_TLS must be one of starttls, tls, none/);
  });

  it('renders text and HTML with the link; what a user typed is escaped in the HTML', () => {
    const url = 'https://pay.example/dashboard/#/reset/abc';
    const reset = passwordResetMail({ url, validForMs: 3600_000 });
    expect(reset.text).toContain(`Choose a new password: ${url}`);
    expect(reset.text).toContain('within 1 hour.');
    expect(reset.html).toContain(`href="${url}"`);
    const invite = invitationMail({ merchantNames: ['<b>Acme</b> & Co'], url, validForMs: 72 * 3600_000 });
    expect(invite.subject).toBe('You are invited to the <b>Acme</b> & Co dashboard');
    expect(invite.html).toContain('&#60;b&#62;Acme&#60;/b&#62; &#38; Co');
    expect(invite.html).not.toContain('<b>Acme');
    expect(escapeHtml(`"'`)).toBe('&#34;&#39;');
  });
});
