/**
 * The HTML report's comparison with a baseline, in real chromium:
 * - the case table filters to the newly failing cases (passed in the baseline, do not pass now),
 *   with their count, and the comparison's "… and N more" leads there (QA D4);
 * - runs, evaluators and cases present on one side only are shown, as `evals compare` names
 *   them (QA D5).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openFilePage, textNow } from './helpers/browser.ts';
import { writeFiles } from './helpers/cli.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

/** 80 rows; rows 0..59 fail in HEAD only, rows 60..64 fail on both sides. */
const NEWLY = 60;
const row = (n: number, head: boolean): { n: number; output: string } => ({
  n,
  output: (head && n < NEWLY) || (n >= NEWLY && n < NEWLY + 5) ? 'no idea' : `answer ${n}`,
});

function suite(evaluators: string[], keys: string): string[] {
  return [
    'hash: [n]',
    `grid: { k: [${keys}] }`,
    'evaluators:',
    ...evaluators.map((id) => `  - { id: ${id}, use: contains, with: { values: [answer] } }`),
  ];
}

let browser: Browser;
let dir = '';

before(async () => {
  browser = await launchBrowser();
  // BASE: rows 0..79 (row 79 is removed in HEAD), grid k=a,b, evaluators e1, e2.
  const baseRows = Array.from({ length: 80 }, (_, n) => row(n, false));
  dir = jsonlProject(baseRows, suite(['e1', 'e2'], 'a, b'));
  const base = await runInProcess(['run', '-o', 'base.json'], dir);
  assert.equal(base.code, 1, base.stderr);
  // HEAD: row 79 gone, row 80 new, grid k=a,c, evaluators e1, e3.
  const headRows = [...Array.from({ length: 79 }, (_, n) => row(n, true)), row(80, true)];
  const fresh = jsonlProject(headRows, suite(['e1', 'e3'], 'a, c'));
  writeFiles(dir, {
    'evals.yaml': readFileSync(join(fresh, 'evals.yaml'), 'utf8'),
    'rows.jsonl': readFileSync(join(fresh, 'rows.jsonl'), 'utf8'),
  });
  const head = await runInProcess(['run', '-o', 'head.json'], dir);
  assert.equal(head.code, 1, head.stderr);
  const written = await runInProcess(
    ['report', 'head.json', '--baseline', 'base.json', '-o', 'report.html'],
    dir,
  );
  assert.equal(written.code, 0, written.stderr);
});

after(() => browser.close());

function openReport(): Promise<Page> {
  return openFilePage(browser, join(dir, 'report.html'), '#comparison', '#case-count');
}

/** What the page's case rows hold, typed here: the tests are type-checked without the DOM. */
type Row = { className: string; children: ArrayLike<{ textContent: string | null }> };

describe('the newly failing filter (D4)', () => {
  it('shows exactly the cases that passed in the baseline and do not pass now, counted', async () => {
    const page = await openReport();
    // k=a is the only run on both sides: its rows 0..59 are the newly failing.
    assert.equal(
      (await page.textContent('#comparison .newly-failing h3'))?.trim(),
      `Newly failing (${NEWLY})`,
    );
    const option = await textNow(page, '#filter-status option[value="newly-failing"]');
    assert.equal(option, `newly failing (${NEWLY})`);
    await page.selectOption('#filter-status', 'newly-failing');
    assert.equal(await page.textContent('#case-count'), `${NEWLY} of 160 cases`);
    // Every row drawn is a failed case of k=a (the run is the fourth cell, after status, case, why).
    const shown = await page.$$eval('#case-rows .case', (rows: Row[]) =>
      rows.map((r) => `${r.className} | ${r.children[3]?.textContent ?? ''}`),
    );
    assert.ok(shown.length > 0);
    for (const line of shown) assert.equal(line, 'row case failed | s · k=a');
    // The cases failing on both sides are not newly failing.
    await page.selectOption('#filter-status', 'not-passed');
    assert.equal(await page.textContent('#case-count'), `${2 * NEWLY + 2 * 5} of 160 cases`);
    await page.close();
  });

  it('the "… and N more" of the comparison sets the case table to them, and says what it does', async () => {
    const page = await openReport();
    const text = (await page.textContent('#comparison .newly-failing')) ?? '';
    assert.doesNotMatch(text, /filter the cases below/);
    assert.equal(
      await textNow(page, '#show-newly-failing'),
      `… and ${NEWLY - 50} more: show all ${NEWLY} in the case table`,
    );
    await page.click('#show-newly-failing');
    assert.equal(await page.inputValue('#filter-status'), 'newly-failing');
    assert.equal(await page.textContent('#case-count'), `${NEWLY} of 160 cases`);
    await page.close();
  });
});

describe('what else changed (D5)', () => {
  it('names the runs, evaluators and cases on one side only, as evals compare does', async () => {
    const compared = await runInProcess(['compare', 'base.json', 'head.json'], dir);
    const text = compared.stdout;
    // The text form's facts, which the page must show too.
    assert.match(text, /Runs only in BASE \(not run in HEAD\):\n {2}s · k=b/);
    assert.match(text, /Runs only in HEAD \(new, nothing to compare with\):\n {2}s · k=c/);
    assert.match(text, /evaluators only in BASE: e2 · evaluators only in HEAD: e3/);
    assert.match(text, /added \(1\)/);
    assert.match(text, /removed \(1\)/);

    const page = await openReport();
    const changes = page.locator('#comparison-changes');
    const oneSided = await changes.locator('.one-sided-runs').allInnerTexts();
    assert.deepEqual(
      oneSided.map((block) => block.split('\n').filter(Boolean)),
      [
        ['Runs only in BASE (not run in HEAD):', 's · k=b'],
        ['Runs only in HEAD (new, nothing to compare with):', 's · k=c'],
      ],
    );
    const run = changes.locator('.run-changes');
    assert.equal(await run.count(), 1);
    assert.equal(await run.locator('h4').textContent(), 's · k=a');
    assert.deepEqual(await run.locator('.evaluators-one-side').allTextContents(), [
      'evaluators only in BASE: e2',
      'evaluators only in HEAD: e3',
      'renamed? an evaluator is compared only with the same id',
    ]);
    const added = run.locator('.case-list[data-title="added"]');
    assert.equal(await added.locator('h5').textContent(), 'added (1)');
    assert.match((await added.locator('li').textContent()) ?? '', /rows\.jsonl:80/);
    const removed = run.locator('.case-list[data-title="removed"]');
    assert.equal(await removed.locator('h5').textContent(), 'removed (1)');
    assert.match((await removed.locator('li').textContent()) ?? '', /rows\.jsonl:80/);
    // Folded under its count, as the PR comment folds it; opened, an added case is HEAD's and
    // opens its detail.
    assert.equal(await added.getAttribute('open'), null);
    assert.equal(await added.locator('li').isVisible(), false);
    await added.locator('summary').click();
    await added.locator('li').click();
    await page.waitForSelector('#detail:not([hidden])');
    assert.match((await page.textContent('#detail-output')) ?? '', /^answer 80$/);
    await page.close();
  });
});

describe('the numbers of the comparison table (D13)', () => {
  it('writes a pass rate in percent and its change in points, a score with three decimals', async () => {
    const page = await openReport();
    const rows = await page.locator('#comparison tbody tr').all();
    const cells = await Promise.all(rows.map((tr) => tr.locator('td').allTextContents()));
    const pass = cells.find((row) => row[1] === 'pass rate');
    assert.ok(pass !== undefined, JSON.stringify(cells));
    // 74 of the 79 paired cases passed in BASE, 14 in HEAD: 60 fewer.
    assert.deepEqual(pass.slice(2, 5), ['93.7%', '17.7%', '-75.9 pp']);
    assert.match(pass[5] ?? '', /^\[-\d+\.\d, -\d+\.\d\] pp$/);
    const score = cells.find((row) => row[1] === 'e1');
    assert.ok(score !== undefined, JSON.stringify(cells));
    assert.deepEqual(score.slice(2, 5), ['0.937', '0.177', '-0.759']);
    assert.match(score[5] ?? '', /^\[-0\.\d{3}, -0\.\d{3}\]$/);
    await page.close();
  });
});
