/**
 * A real headless Chromium for the HTML report tests: Debian's `chromium`
 * (scripts/install-test-deps.sh installs it), driven by playwright-core; no browser is
 * downloaded. Each page records its console errors, uncaught errors and every request it made.
 */
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
