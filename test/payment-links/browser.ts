import { mkdirSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { join } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';

export const SCREENSHOTS = join(__dirname, '..', '..', 'test-output', 'screenshots');

/** Headless Chromium from the Debian package, driven by playwright-core (no browser download). */
export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
}

/**
 * Every console error (a CSP violation is one), script error and failed sub-resource of a page, so a test can
 * insist there were none. A page's own status (410 for a closed link) and the browser's favicon probe of a
 * page that is not ours (the merchant's return URL) are not problems, nor a request the page aborted itself.
 */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
  });
  page.on('response', (r) => {
    const request = r.request();
    if (r.status() >= 400 && request.resourceType() !== 'document' && !r.url().endsWith('/favicon.ico')) {
      problems.push(`${r.status()} ${r.url()}`);
    }
  });
  // A request the page cancelled itself (a query abandoned as it navigates away) is not a failure.
  page.on('requestfailed', (r) => {
    if (r.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`failed ${r.url()}: ${r.failure()?.errorText}`);
  });
  page.on('pageerror', (e) => problems.push(e.message));
  return problems;
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/**
 * The id of the focused element, or of the container of the focused card-field frame (evaluated in the page;
 * the tests compile without the DOM library).
 */
export const focusedId = (page: Page): Promise<string> =>
  page.evaluate<string>('(e => !e ? "" : e.tagName === "IFRAME" ? e.parentElement.id : e.id)(document.activeElement)');

export const scrollWidth = (page: Page): Promise<number> =>
  page.evaluate<number>('document.documentElement.scrollWidth');

/** A merchant's own web page, served from its own origin (another port than the gateway's). */
export async function merchantSite(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createHttpServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/checkout`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
