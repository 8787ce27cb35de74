// Takes docs/report.png, the README's picture of the HTML report: the quickstart's whole report
// (the page's full height, down to the case table and its why column) in a 1280 px window of
// headless Chromium (Debian's, as the tests use). Run after `npm run build`, on any branch, with
// the banner naming main as the README's picture does:
//   GITHUB_SHA=$(git rev-parse HEAD) GITHUB_REF=main node scripts/report-screenshot.js
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const root = new URL('../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'evalgate-shot-'));
const report = join(dir, 'report.html');
try {
  execFileSync(
    process.execPath,
    [
      join(root, 'bin/evals.js'),
      'run',
      'examples/quickstart/evals.yaml',
      '-o',
      join(dir, 'results.json'),
      '--report',
      report,
    ],
    { stdio: 'ignore', cwd: root },
  );
} catch (error) {
  // A failing verdict (exit 1) still writes the report.
  if (error.status !== 1) throw error;
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto(pathToFileURL(report).href);
// The rows, not only the count: the table draws them after the page is up.
await page.waitForSelector('#case-rows .case');
await page.screenshot({ path: join(root, 'docs/report.png'), fullPage: true });
await browser.close();
