/**
 * The HTML report names a case of the comparison's lists (newly failing, fixed) by its id when it
 * has no label, as the case table does: a short id (a row's `__dedup_id__`, `r3`) whole, not
 * `r3…` as though it had been cut; only an id longer than the 12 characters shown gets the `…`.
 * Its newly failing cases, 3 of 12 with 1 fixed, are no alarm: folded, and too few to tell.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { runInProcess } from './helpers/in-process.ts';
import { baseAndHead } from './helpers/comment-and-page.ts';

/** Twelve rows with short dedup ids; in HEAD r0..r2 stop passing and r11 starts to. */
function rows(head: boolean): Record<string, unknown>[] {
  return Array.from({ length: 12 }, (_, n) => ({
    __dedup_id__: `r${n}`,
    output: (head && n < 3) || (!head && n === 11) ? 'no idea' : `answer ${n}`,
  }));
}

const SUITE = ['evaluators:', '  - { id: e, use: contains, with: { values: [answer] } }'];

let browser: Browser;
let dir = '';

before(async () => {
  browser = await launchBrowser();
  dir = await baseAndHead(rows(false), rows(true), SUITE, [1, 1]);
  const report = await runInProcess(
    ['report', 'head.json', '--baseline', 'base.json', '-o', 'report.html'],
    dir,
  );
  assert.equal(report.code, 0, report.stderr);
});

after(() => browser.close());

/** What the page's list items hold, typed here: the tests are type-checked without the DOM. */
type Item = { textContent: string | null };

function texts(items: Item[]): string[] {
  return items.map((item) => item.textContent ?? '');
}

describe("the comparison's case lists in the HTML report", () => {
  it('name a case with a short id by its whole id, with no ellipsis', async () => {
    const page = await openFilePage(browser, join(dir, 'report.html'), '#comparison');
    // 3 of 12 failing, 1 fixed: no alarm, so folded (newly-failing-noise), still named.
    const newly = await page.$$eval('#comparison .newly-failing-noise li', texts);
    // Each with why it fails now beside it.
    const why = ' — e 0 (needs ≥ 1): contains none of "answer"';
    assert.deepEqual(newly, [
      `r0 · rows.jsonl:1 · s${why}`,
      `r1 · rows.jsonl:2 · s${why}`,
      `r2 · rows.jsonl:3 · s${why}`,
    ]);
    const fixed = await page.$$eval('#comparison-changes li', texts);
    assert.deepEqual(fixed, ['r11 · rows.jsonl:12']);
    await page.close();
  });

  it('fold newly failing cases that are no alarm, under the heading the text form gives', async () => {
    const page = await openFilePage(browser, join(dir, 'report.html'), '#comparison');
    // No open "Newly failing" list: 4 flips of 12 cases (3 down, 1 up) are too few to tell.
    assert.equal(await page.locator('#comparison .newly-failing').count(), 0);
    const folded = page.locator('#comparison details.newly-failing-noise');
    assert.equal(await folded.getAttribute('open'), null);
    assert.equal(
      (await folded.locator('summary').textContent())?.trim(),
      '3 newly failing, not significant',
    );
    assert.equal(
      (await folded.locator('h5').textContent())?.trim(),
      's: Newly failing (3; 1 fixed the other way: too few flips to tell noise from a change (4; fewer than 6 can never be significant))',
    );
    await page.close();
  });
});
