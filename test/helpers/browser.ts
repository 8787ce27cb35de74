/**
 * A real headless Chromium for the HTML report tests: Debian's `chromium`
 * (scripts/install-test-deps.sh installs it), driven by playwright-core; no browser is
 * downloaded. Each page records its console errors, uncaught errors and every request it made.
 */
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Where scripts/install-test-deps.sh puts Debian's chromium; CHROMIUM_PATH overrides it. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A page and what it did. */
export interface WatchedPage {
  page: Page;
  errors: string[];
  requests: string[];
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

/** A fresh 1280×800 page that records console errors, page errors and requests. */
export async function watchedPage(browser: Browser): Promise<WatchedPage> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('request', (request) => requests.push(request.url()));
  return { page, errors, requests };
}

/**
 * The page at `file` (an absolute path) in a fresh watched page, once every one of `selectors`
 * is in it; fails if the page logged an error by then.
 */
export async function openFilePage(
  browser: Browser,
  file: string,
  ...selectors: string[]
): Promise<Page> {
  const { page, errors } = await watchedPage(browser);
  await page.goto(pathToFileURL(file).href);
  for (const selector of selectors) await page.waitForSelector(selector);
  assert.deepEqual(errors, []);
  return page;
}

/** The text of `selector`, which must be in the page now (no waiting for it to appear). */
export async function textNow(page: Page, selector: string): Promise<string> {
  const node = await page.$(selector);
  assert.ok(node !== null, `the page has ${selector}`);
  return (await node.textContent()) ?? '';
}
