import { createServer, Server } from 'node:http';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, shot } from '../payment-links/browser';
import { TestStack } from '../support/stack';
import { DashboardClient, PASSWORD } from './dashboard-client';

/**
 * Login CSRF in headless Chromium: a page of another site posts the attacker's credentials to the dashboard's
 * sign-in as a form, to sign the visitor's browser in to the attacker's account. The dashboard takes JSON
 * from its own origin only (dashboard-surface.ts), so the visitor's own session stays.
 */
describe('a cross-site form cannot sign a browser in (Chromium)', () => {
  let stack: TestStack;
  let browser: Browser;
  let attackerSite: Server;
  let attackerOrigin: string;
  let pages: Map<string, string>;

  beforeAll(async () => {
    stack = await TestStack.start({ services: [] });
    browser = await launchBrowser();
    pages = new Map();
    attackerSite = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages.get(req.url ?? '') ?? '');
    });
    await new Promise<void>((resolve) => attackerSite.listen(0, '127.0.0.1', resolve));
    // `localhost`, not 127.0.0.1: another site than the gateway's, as far as the browser is concerned.
    attackerOrigin = `http://localhost:${(attackerSite.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await browser?.close();
    attackerSite?.closeAllConnections();
    await new Promise((resolve) => attackerSite?.close(resolve));
    await stack?.stop();
  });

  /** A browser signed in through the dashboard's own page. */
  async function victim(merchant: string): Promise<{ context: BrowserContext; page: Page; email: string }> {
    const { email } = await DashboardClient.invited(stack, [{ merchantCode: merchant, role: 'owner' }]);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${stack.url}/dashboard#/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Payments' }).waitFor();
    return { context, page, email };
  }

  const whoIsSignedIn = async (page: Page): Promise<string | number> => {
    await page.goto(`${stack.url}/dashboard`);
    return page.evaluate<string | number>(
      `fetch('/dashboard/api/session').then(async (r) => r.ok ? (await r.json()).user.email : r.status)`,
    );
  };

  it('an auto-submitted form of another site, urlencoded or text/plain, leaves the visitor’s session as it was', async () => {
    const merchant = await stack.merchant();
    const attacker = await DashboardClient.invited(stack, [{ merchantCode: merchant, role: 'owner' }]);
    const { context, page, email } = await victim(merchant);
    const before = (await context.cookies(stack.url)).find((c) => c.name === 'pp_dash')?.value;
    expect(before).toBeDefined();

    const action = `${stack.url}/dashboard/api/session`;
    pages.set(
      '/urlencoded',
      `<!doctype html><body><form id="f" method="post" action="${action}">
        <input name="email" value="${attacker.email}"><input name="password" value="${PASSWORD}"></form>
        <script>document.getElementById('f').submit()</script></body>`,
    );
    // The classic JSON-by-form trick: a text/plain body that reads as JSON.
    pages.set(
      '/text-plain',
      `<!doctype html><body><form id="f" method="post" enctype="text/plain" action="${action}">
        <input name='{"email":"${attacker.email}","password":"${PASSWORD}","x":"' value='"}'></form>
        <script>document.getElementById('f').submit()</script></body>`,
    );
    for (const path of ['/urlencoded', '/text-plain']) {
      const answered = page.waitForResponse((r) => r.url() === action);
      await page.goto(`${attackerOrigin}${path}`);
      const response = await answered;
      await shot(page, `dashboard-login-csrf${path.replace('/', '-')}`);
      // Still the visitor, not the attacker; the form's post was refused and set no cookie.
      expect({ path, signedIn: await whoIsSignedIn(page) }).toEqual({ path, signedIn: email });
      expect({ path, status: response.status() }).toEqual({ path, status: 403 });
      expect(await response.headerValue('set-cookie')).toBeNull();
    }
    expect((await context.cookies(stack.url)).find((c) => c.name === 'pp_dash')?.value).toBe(before);
    await context.close();
  });

  it('a browser with no session is not signed in either', async () => {
    const merchant = await stack.merchant();
    const attacker = await DashboardClient.invited(stack, [{ merchantCode: merchant, role: 'owner' }]);
    const context = await browser.newContext();
    const page = await context.newPage();
    pages.set(
      '/fresh',
      `<!doctype html><body><form id="f" method="post" action="${stack.url}/dashboard/api/session">
        <input name="email" value="${attacker.email}"><input name="password" value="${PASSWORD}"></form>
        <script>document.getElementById('f').submit()</script></body>`,
    );
    const answered = page.waitForResponse((r) => r.url().endsWith('/dashboard/api/session'));
    await page.goto(`${attackerOrigin}/fresh`);
    const response = await answered;
    expect(await whoIsSignedIn(page)).toBe(401);
    expect(response.status()).toBe(403);
    expect((await context.cookies(stack.url)).filter((c) => c.name === 'pp_dash')).toEqual([]);
    await context.close();
  });
});
