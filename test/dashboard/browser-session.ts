import { Browser, BrowserContext, Page } from 'playwright-core';
import { watchProblems } from '../payment-links/browser';
import { TestStack } from '../support/stack';
import { PASSWORD } from './dashboard-client';

export type Role = 'owner' | 'developer' | 'support';

/**
 * A user of `merchantCode` invited through the admin API, with the password set from the invitation link and
 * signed in, in a new browser context (its own cookies) on the Payments page; `problems` collects console
 * errors and failed requests from then on.
 */
export async function signedInBrowser(
  stack: TestStack,
  browser: Browser,
  merchantCode: string,
  role: Role,
  viewport = { width: 1280, height: 900 },
): Promise<{ context: BrowserContext; page: Page; problems: string[]; email: string }> {
  const email = `${role}-${Math.random().toString(36).slice(2, 8)}@shop.example`;
  const r = await stack.admin('POST', '/dashboard-users', { email, memberships: [{ merchantCode, role }] });
  if (r.status !== 201) throw new Error(`invite: ${r.status} ${JSON.stringify(r.body)}`);
  const invite = new URL(String(r.body.inviteUrl));
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${stack.url}${invite.pathname}${invite.hash}`);
  await page.getByLabel('New password (12 characters or more)').fill(PASSWORD);
  await page.getByLabel('Repeat the password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByRole('link', { name: 'sign in' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Sign-in lands on the home page; these tests start on the Payments page.
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Payments' }).click();
  await page.getByRole('heading', { name: 'Payments', level: 1 }).waitFor();
  await page.waitForLoadState('networkidle'); // the list's first page has loaded
  problems.length = 0;
  return { context, page, problems, email };
}
