import { Browser, Page } from 'playwright-core';
import { launchBrowser, shot, watchProblems } from '../payment-links/browser';
import { SmtpSink, linkIn } from '../support/smtp-sink';
import { TestStack } from '../support/stack';
import { PASSWORD } from './dashboard-client';

/**
 * The owner runs the team in headless Chromium, every link read from the email the gateway sent to a local
 * SMTP sink: invite, accept, change a role, remove; a forgotten password reset; the audit log of it all.
 */
describe('the team, password reset and audit log in a browser (gateway → SMTP sink)', () => {
  let stack: TestStack;
  let sink: SmtpSink;
  let browser: Browser;
  let merchant: string;

  beforeAll(async () => {
    sink = await SmtpSink.start();
    // Billing answers the home page's recovery figures (the landing page after every sign-in).
    stack = await TestStack.start({ env: sink.env(), services: ['payments', 'billing'] });
    merchant = await stack.merchant();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await sink?.stop();
  });

  /** The emailed link, on this test's gateway origin. */
  const emailedLink = async (email: string, subject: RegExp): Promise<string> => {
    const url = new URL(linkIn((await sink.waitFor(email, subject)).text, 'http'));
    return `${stack.url}${url.pathname}${url.hash}`;
  };

  async function setPasswordAndSignIn(page: Page, link: string, email: string, password = PASSWORD) {
    await page.goto(link);
    await page.getByLabel('New password (12 characters or more)').fill(password);
    await page.getByLabel('Repeat the password').fill(password);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('link', { name: 'sign in' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Payments' }).waitFor();
  }

  it('an owner invites a colleague by email, changes the role, removes them; the audit log shows it all', async () => {
    const ownerEmail = `owner-${Date.now()}@shop.example`;
    const invited = await stack.admin('POST', '/dashboard-users', {
      email: ownerEmail,
      memberships: [{ merchantCode: merchant, role: 'owner' }],
    });
    expect(invited.body.mail).toBe('sent');
    const ownerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const owner = await ownerContext.newPage();
    const problems = watchProblems(owner);
    await setPasswordAndSignIn(owner, await emailedLink(ownerEmail, /invited/), ownerEmail);
    problems.length = 0;

    await owner.getByRole('link', { name: 'Team' }).click();
    await owner.getByRole('heading', { name: 'Team' }).waitFor();
    const colleague = `colleague-${Date.now()}@shop.example`;
    const form = owner.getByRole('form', { name: 'Invite someone' });
    await form.getByLabel('Email').fill(colleague);
    await form.getByLabel('Role').selectOption('support');
    await form.getByRole('button', { name: 'Invite' }).click();
    await owner.getByRole('status').filter({ hasText: 'on its way by email' }).waitFor();
    await owner.getByRole('cell', { name: colleague, exact: true }).waitFor();
    await expect(owner.getByRole('row', { name: new RegExp(colleague) }).textContent()).resolves.toContain('invited');

    // The colleague follows the emailed link in their own browser; support sees the team but no controls.
    const theirs = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await setPasswordAndSignIn(theirs, await emailedLink(colleague, /invited/), colleague);
    await theirs.getByRole('link', { name: 'Team' }).click();
    await theirs.getByRole('cell', { name: ownerEmail, exact: true }).waitFor();
    expect(await theirs.getByRole('form', { name: 'Invite someone' }).count()).toBe(0);
    expect(await theirs.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    expect(await theirs.getByRole('link', { name: 'Audit log' }).count()).toBe(0);

    await owner.reload();
    await owner.getByRole('link', { name: 'Team' }).click();
    await owner.getByLabel(`Role of ${colleague}`).selectOption('developer');
    await owner
      .getByRole('status')
      .filter({ hasText: `${colleague} is now developer` })
      .waitFor();
    await shot(owner, 'dashboard-team');
    await owner.getByRole('button', { name: `Remove ${colleague}` }).click();
    await owner
      .getByRole('dialog')
      .getByRole('button', { name: `Confirm: Remove ${colleague}` })
      .click();
    await owner
      .getByRole('status')
      .filter({ hasText: `${colleague} removed` })
      .waitFor();
    expect(await owner.getByRole('cell', { name: colleague, exact: true }).count()).toBe(0);

    await owner.getByRole('link', { name: 'Audit log' }).click();
    const table = owner.getByRole('table', { name: 'Audit log' });
    await table.getByText('team.removed').waitFor();
    const text = (await table.textContent()) ?? '';
    for (const type of ['team.invited', 'team.role_changed', 'team.removed']) expect(text).toContain(type);
    expect(text).toContain(ownerEmail);
    expect(text).toContain(`email ${colleague}`);
    await shot(owner, 'dashboard-audit-log');
    expect(problems).toEqual([]);
    await ownerContext.close();
  });

  it('a forgotten password: the emailed link sets a new one, which signs in', async () => {
    const email = `forgetful-${Date.now()}@shop.example`;
    await stack.admin('POST', '/dashboard-users', {
      email,
      memberships: [{ merchantCode: merchant, role: 'support' }],
    });
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await setPasswordAndSignIn(page, await emailedLink(email, /invited/), email);
    await page.getByRole('button', { name: 'Sign out' }).click();

    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await page.getByRole('status').filter({ hasText: 'on its way' }).waitFor();
    await shot(page, 'dashboard-forgot-password');
    const newPassword = 'my new dashboard password';
    await setPasswordAndSignIn(page, await emailedLink(email, /Reset/), email, newPassword);
  });
});
