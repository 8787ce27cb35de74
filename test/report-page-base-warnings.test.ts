/**
 * The report page's case detail shows the baseline's own warnings where it shows the baseline's
 * result of a changed case (newly failing, fixed), in real chromium: BASE's output held an integer
 * past 2^53 (read as another number), HEAD's did not, so only the baseline's side says so.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { baseAndHeadRun, BIG, READ_AS } from './helpers/fixed-warned-project.ts';

let browser: Browser;
let dir = '';
let ids: string[] = [];

before(async () => {
  browser = await launchBrowser();
  // In BASE rows 0 (passing) and 1 (failing) answer the big id; in HEAD, row 0 fails, row 1
  // passes, and every row answers 7.
  const run = await baseAndHeadRun({
    rows: 3,
    bigWhen: "mode === 'base' && n !== '2'",
    headArgs: ['--report', 'run.html'],
  });
  assert.equal(run.head.code, 0, run.head.stderr);
  dir = run.dir;
  ids = run.ids;
});

after(() => browser.close());

async function openCase(id: string): Promise<Page> {
  const page = await openFilePage(browser, join(dir, 'run.html'), '#case-count');
  await page.click(`#case-rows .case[data-id="${id}"]`);
  await page.waitForSelector('#detail:not([hidden])');
  return page;
}

function texts(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(selector, (nodes: { textContent: string | null }[]) =>
    nodes.map((n) => n.textContent ?? ''),
  );
}

describe("the baseline's warnings in a changed case's detail", () => {
  for (const [row, what] of [
    [0, 'a newly failing case'],
    [1, 'a fixed case'],
  ] as const) {
    it(`${what} shows the warning BASE's output carried, and none for HEAD's`, async () => {
      const page = await openCase(ids[row] ?? '');
      assert.ok((await page.$('#detail-base')) !== null, 'the baseline part is shown');
      const warnings = await texts(page, '#detail .detail-base-warning');
      assert.equal(warnings.length, 1, warnings.join('\n'));
      assert.match(
        warnings[0] ?? '',
        new RegExp(`^Warning in BASE: the output holds ${BIG}, .* read as ${READ_AS}`),
      );
      // HEAD's output held no big integer: no warning of its own.
      assert.deepEqual(await texts(page, '#detail .detail-warning'), []);
      await page.close();
    });
  }

  it('an unchanged case shows no baseline warning', async () => {
    const page = await openCase(ids[2] ?? '');
    assert.equal(await page.$('#detail .detail-base-warning'), null);
    await page.close();
  });
});
