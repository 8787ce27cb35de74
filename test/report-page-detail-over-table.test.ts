/**
 * The case detail is a panel over the page: nothing of the page shows through it. The case
 * table's sticky header row (run, ms, one column per evaluator) used to be painted over the
 * open panel, across the middle of the case's output or reasons. A keyboard user lands in it
 * when it opens and back on the row when it closes. Real chromium.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

let browser: Browser;
let dir = '';

before(async () => {
  browser = await launchBrowser();
  dir = jsonlProject(
    [{ q: 'a' }, { q: 'b' }],
    [
      'function: ./m.mjs#fn',
      'evaluators:',
      '  - { id: exact, use: is-equals, with: { expected: a } }',
      '  - { id: long, use: length, with: { max: 5 } }',
    ],
    { 'm.mjs': "export const fn = ({ testCase }) => testCase.q + ' output';\n" },
  );
  const run = await runInProcess(['run', '-o', 'results.json', '--report', 'report.html'], dir);
  assert.equal(run.code, 1, run.stderr);
});

after(() => browser.close());

describe('the open case detail', () => {
  it('covers the case table, its sticky header row included', async () => {
    const page = await openFilePage(browser, join(dir, 'report.html'), '#case-count');
    await page.locator('#case-rows').scrollIntoViewIfNeeded();
    await page.click('#case-rows .case >> nth=0');
    await page.waitForSelector('#detail:not([hidden])');
    // The header cells under the panel that are not hidden by it (a string: no DOM types here).
    const uncovered = await page.evaluate<string[]>(`(() => {
      const panel = document.querySelector('#detail').getBoundingClientRect();
      const found = [];
      for (const cell of document.querySelectorAll('.row.head > *')) {
        const box = cell.getBoundingClientRect();
        const x = box.left + box.width / 2;
        const y = box.top + box.height / 2;
        if (x < panel.left || y < 0 || y > window.innerHeight) continue;
        const top = document.elementFromPoint(x, y);
        if (top !== null && top.closest('#detail') === null) found.push(cell.textContent);
      }
      return found;
    })()`);
    assert.deepEqual(uncovered, []);
    await page.close();
  });

  it('takes the focus when a row opens it with Enter, and gives it back on Escape', async () => {
    const page = await openFilePage(browser, join(dir, 'report.html'), '#case-count');
    const row = page.locator('#case-rows .case >> nth=1');
    await row.focus();
    const id = await row.getAttribute('data-id');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#detail:not([hidden])');
    assert.equal(await page.evaluate('document.activeElement.closest("#detail") !== null'), true);
    assert.equal(await page.getAttribute('#detail', 'role'), 'dialog');
    await page.keyboard.press('Escape');
    await page.waitForSelector('#detail[hidden]', { state: 'attached' });
    assert.equal(await page.evaluate('document.activeElement.dataset.id'), id);
    // The close button does the same.
    await page.keyboard.press('Enter');
    await page.waitForSelector('#detail:not([hidden])');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#detail[hidden]', { state: 'attached' });
    assert.equal(await page.evaluate('document.activeElement.dataset.id'), id);
    await page.close();
  });
});
