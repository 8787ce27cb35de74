/**
 * The case detail of the HTML report for a case with no evaluation: a case whose function threw
 * has none (its evaluators never ran), and the detail says so under Evaluations instead of an
 * empty table of headings, as `evals show` leaves out the evaluations it does not have.
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
    [{ q: 'fine' }, { q: 'throw' }],
    [
      'function: ./m.mjs#fn',
      'evaluators:',
      '  - { id: exact, use: is-equals, with: { expected: ok } }',
    ],
    {
      'm.mjs':
        "export function fn({ testCase }) { if (testCase.q === 'throw') throw new Error('boom'); return 'ok'; }\n",
    },
  );
  const run = await runInProcess(['run', '-o', 'results.json', '--report', 'report.html'], dir);
  assert.equal(run.code, 1, run.stderr);
});

after(() => browser.close());

describe('the detail of a case without evaluations', () => {
  it('says that the case errored before its evaluators ran, with no empty table', async () => {
    const page = await openFilePage(browser, join(dir, 'report.html'), '#case-count');
    await page.fill('#filter-search', 'rows.jsonl:2');
    await page.click('#case-rows .case >> nth=0');
    await page.waitForSelector('#detail:not([hidden])');
    assert.equal(await page.locator('#detail table#detail-evaluations').count(), 0);
    assert.equal(
      await page.textContent('#detail-evaluations'),
      'none: the case errored before its evaluators ran',
    );
    // A case that ran keeps its table.
    await page.keyboard.press('Escape');
    await page.fill('#filter-search', 'rows.jsonl:1');
    await page.click('#case-rows .case >> nth=0');
    await page.waitForSelector('#detail:not([hidden])');
    assert.equal(await page.locator('#detail table#detail-evaluations tbody tr').count(), 1);
    await page.close();
  });
});
