/**
 * Every form counts newly failing cases the same way: cases, a case newly failing on two grid
 * points once, with the (case, grid point) pairs said beside. The PR comment did; the HTML page
 * counted pairs under the same words (`Newly failing (12)` for 6 cases on 2 grid points), in its
 * heading, its folded summary, its link to the case table and the table's filter.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openFilePage, textNow } from './helpers/browser.ts';
import { baseAndHead, commentAndPage } from './helpers/comment-and-page.ts';

/** Rows whose recorded output is right but, in HEAD, for the first `NEWLY`: 40 cases a point. */
const NEWLY = 6;
const rows = (head: boolean): Record<string, unknown>[] =>
  Array.from({ length: 40 }, (_, n) => ({
    n,
    output: head && n < NEWLY ? 'no idea' : `answer ${n}`,
  }));
/** Two grid points reading the same recorded outputs: each newly failing case fails on both. */
const SUITE = [
  'hash: [n]',
  'grid: { k: [a, b] }',
  'evaluators: [ { id: e, use: contains, with: { values: [answer] } } ]',
];
const COUNTED = `${NEWLY} cases, ${2 * NEWLY} counting each grid point`;

let browser: Browser;
let dir = '';
let markdown = '';

before(async () => {
  browser = await launchBrowser();
  dir = await baseAndHead(rows(false), rows(true), SUITE);
  markdown = await commentAndPage(dir);
});

after(() => browser.close());

describe('newly failing cases on two grid points', () => {
  it('are counted as cases, the pairs beside, in the PR comment', () => {
    const why =
      'at each of the 2 grid points: passed its gate in BASE and fails it now; pass rate possibly regressed; e possibly regressed';
    assert.ok(
      markdown.includes(`**Newly failing (${COUNTED}):**\n\nAn alarm because:\n- ${why}\n`),
      markdown,
    );
  });

  it('and the same on the HTML page: its heading, its link and the case filter', async () => {
    const page = await openFilePage(browser, join(dir, 'report.html'), '#comparison');
    assert.equal(
      (await page.textContent('#comparison .newly-failing h3'))?.trim(),
      `Newly failing (${COUNTED})`,
    );
    // A line per (case, grid point) in the list, each naming its grid point.
    assert.equal(await page.locator('#comparison .newly-failing > ul > li').count(), 2 * NEWLY);
    const option = await textNow(page, '#filter-status option[value="newly-failing"]');
    assert.equal(option, `newly failing (${COUNTED})`);
    await page.close();
  });
});
