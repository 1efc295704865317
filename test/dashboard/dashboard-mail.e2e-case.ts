import { DataSource } from 'typeorm';
import { SmtpSink, linkIn } from '../support/smtp-sink';
import { TestStack } from '../support/stack';

describe('email over SMTP (gateway → a local SMTP sink, real Postgres)', () => {
  let stack: TestStack;
  let sink: SmtpSink;
  let merchant: string;

  beforeAll(async () => {
    sink = await SmtpSink.start({ credentials: { user: 'mailer', pass: 'smtp-password' } });
    stack = await TestStack.start({ env: sink.env() });
    merchant = await stack.merchant();
  });
  afterAll(async () => {
    await stack.stop();
    await sink.stop();
  });

  const sendsTo = (email: string): Promise<Record<string, unknown>[]> =>
    stack.gateway!.get(DataSource).query(
      `SELECT to_address, template, outcome, message_id, error, created_at, row_to_json(s)::text AS whole
       FROM mail_sends s WHERE to_address = $1 ORDER BY created_at`,
      [email],
    );

  it('an invitation is emailed from MAIL_FROM, signed in with SMTP_USER, as text and HTML with the link; the send is recorded without the token', async () => {
    const email = `ana.${Date.now()}@shop.example`;
    const invite = await stack.admin('POST', '/dashboard-users', {
      email,
      memberships: [{ merchantCode: merchant, role: 'support' }],
    });
    expect(invite.status).toBe(201);
    expect(invite.body.mail).toBe('sent');

    const mail = await sink.waitFor(email);
    expect(mail.from).toMatch(/^"?Payments"? <no-reply@payments.test>$/);
    expect(mail.user).toBe('mailer');
    expect(mail.subject).toBe(`You are invited to the Merchant ${merchant} dashboard`);
    const link = linkIn(mail.text, 'http://');
    expect(link).toBe(invite.body.inviteUrl);
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.text).toContain('within 72 hours');

    const sends = await sendsTo(email);
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({ template: 'invitation', outcome: 'sent', error: null });
    expect(sends[0].message_id).toEqual(expect.any(String));
    const token = link.split('#/invite/')[1];
    expect(sends[0].whole).not.toContain(token);
    expect(stack.log('gateway').text()).not.toContain(token);
  });

  it('a refused message is recorded as failed and the answer says so (the invitation stands)', async () => {
    const email = `refused.${Date.now()}@shop.example`;
    sink.refuse = true;
    try {
      const invite = await stack.admin('POST', '/dashboard-users', {
        email,
        memberships: [{ merchantCode: merchant, role: 'support' }],
      });
      expect(invite.status).toBe(201);
      expect(invite.body.mail).toBe('failed');
    } finally {
      sink.refuse = false;
    }
    expect(sink.to(email)).toHaveLength(0);
    const sends = await sendsTo(email);
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({ template: 'invitation', outcome: 'failed', message_id: null });
    expect(String(sends[0].error)).toMatch(/550/);
  });
});
