/**
 * The detail of a case run with `trials:` says why each failing trial failed, as `evals show`
 * does on its trial lines: the case's own evaluations explain one failing trial at most, and a
 * flaky case that passed (2 of 3) explains none, so its failing trial's reason was nowhere on
 * the page. An evaluator's error in a trial is quoted too. Real chromium.
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
    [{ q: 'flaky' }, { q: 'judge' }],
    [
      'function: ./m.mjs#fn',
      'trials: 3',
      'evaluators:',
      '  - { id: exact, use: is-equals, with: { expected: a } }',
      '  - { id: judge, use: ./ev.mjs#judge, threshold: { gte: 0.5 } }',
    ],
    {
      'm.mjs':
        "export const fn = ({ testCase, trial }) => testCase.q === 'flaky' && trial === 3 ? 'nope' : 'a';\n",
      'ev.mjs':
        "export const judge = ({ testCase, trial }) => { if (testCase.q === 'judge' && trial === 2) throw new Error('quota exhausted'); return { score: 1 }; };\n",
    },
  );
  const run = await runInProcess(['run', '-o', 'results.json', '--report', 'report.html'], dir);
  assert.ok(run.code === 0 || run.code === 1, run.stderr);
});

after(() => browser.close());

async function trialLines(source: string): Promise<string[]> {
  const page = await openFilePage(browser, join(dir, 'report.html'), '#case-count');
  await page.fill('#filter-search', source);
  await page.click('#case-rows .case >> nth=0');
  await page.waitForSelector('#detail:not([hidden])');
  const lines = await page.locator('#detail ol.trials li').allTextContents();
  await page.close();
  return lines;
}

describe('the trials of a case in its detail', () => {
  it("a flaky case that passed names its failing trial's reason", async () => {
    const lines = await trialLines('rows.jsonl:1');
    assert.equal(lines.length, 3);
    assert.match(lines[2] ?? '', /exact 0\.000, judge 1\.000 — exact: expected "a", got "nope"/);
    assert.doesNotMatch(lines[0] ?? '', /—/);
  });

  it("an evaluator's error in one trial is quoted on that trial's line", async () => {
    const lines = await trialLines('rows.jsonl:2');
    assert.match(lines[1] ?? '', /judge error — judge: error: quota exhausted/);
  });
});
