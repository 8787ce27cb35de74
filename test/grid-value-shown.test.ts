/**
 * An empty-string grid value is shown as `""`, not as a blank cell, in the terminal summary,
 * `evals show` and the HTML report; `--grid style=` still selects it. Other strings stay bare
 * (the values of one key never read the same: the config refuses `0` beside `"0"`).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

let browser: Browser;
let dir = '';
let summary = '';

before(async () => {
  browser = await launchBrowser();
  dir = jsonlProject(
    [{ n: 1, output: 'x' }],
    [
      'hash: [n]',
      "grid: { style: ['', 'null'], tone: [null] }",
      'evaluators:',
      '  - { id: exact, use: is-equals, with: { expected: y } }',
    ],
  );
  const run = await runInProcess(['run', '-o', 'results.json', '--report', 'report.html'], dir);
  assert.equal(run.code, 1, run.stderr);
  summary = run.stdout;
});

after(() => browser.close());

describe('an empty-string grid value', () => {
  it('the terminal summary quotes them, in the grid matrix and the run headings', () => {
    assert.match(summary, /^ {2}"" {5}null /m);
    assert.match(summary, /^ {2}null {3}null /m);
    assert.match(summary, /^s {2}style="" tone=null {2}FAIL/m);
    assert.match(summary, /^s {2}style=null tone=null {2}FAIL/m);
  });

  it('evals show quotes them, and --grid style= still selects the empty string', async () => {
    const show = await runInProcess(['show', 'results.json', '--grid', 'style='], dir);
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /run {7}s · style="" tone=null\n/);
    assert.doesNotMatch(show.stdout, /style=null/);
  });

  it('the HTML report quotes them in the grid matrix', async () => {
    const page = await openFilePage(browser, join(dir, 'report.html'), '#case-count');
    type Row = { querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }> };
    const cells = await page.$$eval('table tr', (rows: Row[]) =>
      rows.map((row) => Array.from(row.querySelectorAll('td'), (td) => td.textContent ?? '')),
    );
    assert.ok(
      cells.some((row) => row[0] === '""' && row[1] === 'null'),
      JSON.stringify(cells),
    );
    assert.ok(cells.some((row) => row[0] === 'null' && row[1] === 'null'));
    await page.close();
  });
});
