/**
 * The HTML report's comparison, in a real browser. With an incomplete side (a baseline that was
 * interrupted, or merged from only some shards) it is still compared, but the page says so as the
 * terminal and markdown forms do (a warning per side, and the runs cut short named in the
 * table), so a reader never takes it for a full comparison; a clean comparison shows no warning.
 * The newly failing cases are listed by name and open their detail.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openFilePage, watchedPage } from './helpers/browser.ts';
import { writeFiles } from './helpers/cli.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { writeInterrupted } from './helpers/interrupted-artifact.ts';

const rows = Array.from({ length: 6 }, (_, n) => ({ n, output: `answer ${n}` }));

let browser: Browser;
let dir = '';

before(async () => {
  browser = await launchBrowser();
  dir = jsonlProject(rows, [
    'hash: [n]',
    'grid: { k: [a, b] }',
    'evaluators:',
    '  - { use: contains, with: { values: [answer] } }',
  ]);
  const head = await runInProcess(['run', '-o', 'head.json'], dir);
  assert.equal(head.code, 0, head.stderr);
  for (const shard of ['1/2', '2/2']) {
    const run = await runInProcess(['run', '--shard', shard, '-o', `s${shard[0]}.json`], dir);
    assert.equal(run.code, 0, run.stderr);
  }
});

after(() => browser.close());

/** Writes `file` comparing head.json with `baseline` and opens it; the page had no error. */
async function comparedPage(baseline: string, file: string, results = 'head.json'): Promise<Page> {
  const written = await runInProcess(['report', results, '-o', file, '--baseline', baseline], dir);
  assert.equal(written.code, 0, written.stderr);
  return openFilePage(browser, join(dir, file), '#comparison');
}

/**
 * The text of every warning paragraph of the comparison section but the first, which says that
 * the verdict is the run's own (none of these runs gates on regressions).
 */
async function warnings(page: Page): Promise<string[]> {
  const [verdict, ...rest] = await page.locator('#comparison .warning').allTextContents();
  assert.match(verdict ?? '', /^The verdict is the run's own: this comparison does not gate it/);
  return rest;
}

/** The first cell of each comparison table row. */
function runCells(page: Page): Promise<string[]> {
  return page.locator('#comparison tbody tr td:first-child').allTextContents();
}

describe('the HTML comparison with an incomplete baseline', () => {
  it('warns that an interrupted baseline is incomplete and names the run cut short', async () => {
    writeInterrupted(dir, 'head.json', 'interrupted.json', 2, 0);
    const page = await comparedPage('interrupted.json', 'interrupted.html');
    const [warning, ...more] = await warnings(page);
    assert.equal(more.length, 0);
    assert.match(
      warning ?? '',
      /^BASE is incomplete \(interrupted\): s · k=a has 2 of 6 planned cases\./,
    );
    assert.match(
      warning ?? '',
      /4 cases HEAD ran and BASE did not are listed as "not run in BASE"/,
    );
    assert.match(warning ?? '', /judged only on the 8 cases both ran/);
    const cells = await runCells(page);
    assert.ok(cells.length > 0);
    for (const cell of cells) {
      if (cell.startsWith('s · k=a')) assert.equal(cell, 's · k=a · BASE has 2 of 6 planned cases');
      else assert.equal(cell, 's · k=b');
    }
    // The warning is shown as a warning, in the page's warning colour.
    const colour = await page.evaluate(
      `getComputedStyle(document.querySelector('#comparison .warning strong')).color`,
    );
    assert.equal(colour, 'rgb(176, 125, 18)');
    await page.close();
  });

  it('says which shards a partial merge lacks', async () => {
    const merged = await runInProcess(
      ['merge', 's1.json', '--allow-partial', '-o', 'partial.json'],
      dir,
    );
    assert.equal(merged.code, 1, merged.stderr); // a partial merge fails its gate
    const page = await comparedPage('partial.json', 'partial.html');
    const [warning, ...more] = await warnings(page);
    assert.equal(more.length, 0);
    assert.match(
      warning ?? '',
      /^BASE is incomplete \(a partial merge\): only shard 1 of 2 was merged, so every run lacks the cases of shard 2/,
    );
    await page.close();
  });

  it('shows no warning and plain run names when both sides are whole', async () => {
    const page = await comparedPage('head.json', 'clean.html');
    assert.deepEqual(await warnings(page), []);
    assert.deepEqual([...new Set(await runCells(page))].sort(), ['s · k=a', 's · k=b']);
    await page.close();
  });
});

describe('the newly failing cases in the HTML comparison', () => {
  it('are listed by source line and run, and open the case on click', async () => {
    const worse = rows.map((row) => (row.n < 2 ? { ...row, output: 'no idea' } : row));
    writeFiles(dir, { 'rows.jsonl': `${worse.map((row) => JSON.stringify(row)).join('\n')}\n` });
    const run = await runInProcess(['run', '-o', 'worse.json'], dir);
    assert.equal(run.code, 1, run.stderr);
    writeFiles(dir, { 'rows.jsonl': `${rows.map((row) => JSON.stringify(row)).join('\n')}\n` });
    const page = await comparedPage('head.json', 'worse.html', 'worse.json');
    assert.equal(
      (await page.textContent('#comparison .newly-failing h3'))?.trim(),
      // Counted as the PR comment counts them: 2 cases, each on both grid points.
      'Newly failing (2 cases, 4 counting each grid point)',
    );
    const items = await page.locator('#comparison .newly-failing > ul > li').allTextContents();
    assert.equal(items.length, 4);
    // Each with why it fails now beside it, as its row in the case table says it.
    for (const item of items) {
      assert.match(
        item,
        /^\S.* · rows\.jsonl:[12] · s · k=[ab] — contains 0 \(needs ≥ 1\): contains none of "answer"$/,
      );
    }
    await page.locator('#comparison .newly-failing > ul > li').first().click();
    await page.waitForSelector('#detail:not([hidden])');
    assert.match((await page.textContent('#detail')) ?? '', /no idea/);
    await page.close();
  });
});

describe('an interval that ends at 0 in the HTML comparison', () => {
  it('says it includes 0, as the text forms do', async () => {
    const many = Array.from({ length: 30 }, (_, n) => ({ n, output: `answer ${n}` }));
    const project = jsonlProject(many, [
      'hash: [n]',
      'evaluators:',
      '  - { use: contains, with: { values: [answer] } }',
    ]);
    assert.equal((await runInProcess(['run', '-o', 'base.json'], project)).code, 0);
    const worse = many.map((row) => (row.n < 2 ? { ...row, output: 'no idea' } : row));
    writeFiles(project, {
      'rows.jsonl': `${worse.map((row) => JSON.stringify(row)).join('\n')}\n`,
    });
    const head = await runInProcess(['run', '-o', 'head.json', '--baseline', 'base.json'], project);
    assert.match(head.stdout, /95% CI -\d+\.\d…0\.0 pp, includes 0/);
    const written = await runInProcess(
      ['report', 'head.json', '-o', 'r.html', '--baseline', 'base.json'],
      project,
    );
    assert.equal(written.code, 0, written.stderr);
    const { page, errors } = await watchedPage(browser);
    await page.goto(pathToFileURL(join(project, 'r.html')).href);
    await page.waitForSelector('#comparison');
    const cells = await page.locator('#comparison tbody tr td:nth-child(6)').allTextContents();
    assert.ok(cells.length > 0);
    // A score's interval with three decimals, the pass rate's in percentage points.
    for (const cell of cells) {
      assert.match(cell, /^\[-\d\.\d{3}, 0\.000\] includes 0$|^\[-\d+\.\d, 0\.0\] pp includes 0$/);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
});
