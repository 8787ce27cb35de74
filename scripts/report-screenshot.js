// Takes docs/report.png, the README's picture of the HTML report: the quickstart's report at
// 1280x800 in headless Chromium (Debian's, as the tests use). Run after `npm run build`:
//   node scripts/report-screenshot.js
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
await page.waitForSelector('#case-count');
await page.screenshot({ path: join(root, 'docs/report.png') });
await browser.close();
