/** The emails the platform sends, each as plain text and HTML (docs/mail.md). */
export const MAIL_TEMPLATES = ['invitation', 'password_reset', 'card_update'] as const;
export type MailTemplate = (typeof MAIL_TEMPLATES)[number];

export interface RenderedMail {
  template: MailTemplate;
  subject: string;
  text: string;
  html: string;
}

/** Text of a value inside HTML: no value a user typed (a merchant name, a plan) becomes markup. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

interface Body {
  greeting: string;
  paragraphs: string[];
  action: { label: string; url: string };
  footer: string;
}

function render(template: MailTemplate, subject: string, body: Body): RenderedMail {
  const text = [
    body.greeting,
    '',
    ...body.paragraphs.flatMap((p) => [p, '']),
    `${body.action.label}: ${body.action.url}`,
    '',
    body.footer,
    '',
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.5; color: #1a1a1a">
<p>${escapeHtml(body.greeting)}</p>
${body.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<p><a href="${escapeHtml(body.action.url)}" style="display: inline-block; padding: 10px 16px; background: #2d5bd7; color: #fff; text-decoration: none; border-radius: 4px">${escapeHtml(body.action.label)}</a></p>
<p style="font-size: 13px; color: #555">${escapeHtml(body.footer)}</p>
</body></html>
`;
  return { template, subject, text, html };
}

const hours = (ms: number): string => {
  const n = Math.round(ms / 3600_000);
  return n === 1 ? '1 hour' : `${n} hours`;
};

/** A dashboard invitation: the link sets the new user's password. */
export function invitationMail(o: { merchantNames: string[]; url: string; validForMs: number }): RenderedMail {
  const merchants = o.merchantNames.join(', ');
  return render('invitation', `You are invited to the ${merchants} dashboard`, {
    greeting: 'Hello,',
    paragraphs: [`You have been invited to the payments dashboard of ${merchants}.`],
    action: { label: 'Choose your password', url: o.url },
    footer: `The link works once, within ${hours(o.validForMs)}. If you did not expect this, ignore this email.`,
  });
}

/** A forgotten password: the link sets a new one. */
export function passwordResetMail(o: { url: string; validForMs: number }): RenderedMail {
  return render('password_reset', 'Reset your dashboard password', {
    greeting: 'Hello,',
    paragraphs: ['Someone asked to reset the password of your payments dashboard account.'],
    action: { label: 'Choose a new password', url: o.url },
    footer:
      `The link works once, within ${hours(o.validForMs)}. ` +
      'If you did not ask for it, ignore this email: your password stays as it is.',
  });
}

/** A customer's card failed or expires: the link takes a new one for the subscription. */
export function cardUpdateMail(o: {
  merchantName: string;
  planName: string;
  amountDue: string;
  url: string;
  validForMs: number;
}): RenderedMail {
  return render('card_update', `Update your card for ${o.merchantName}`, {
    greeting: 'Hello,',
    paragraphs: [
      `We could not charge your card for your ${o.planName} subscription with ${o.merchantName}.`,
      `Amount due: ${o.amountDue}.`,
    ],
    action: { label: 'Update your card', url: o.url },
    footer: `The link works once, within ${hours(o.validForMs)}.`,
  });
}
