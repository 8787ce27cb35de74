/**
 * The HTML report's comparison table for a row with no paired case (a run with no case on
 * either side): it has no interval, and its CI cell says `—` as its other numbers do, not
 * `[—, —] pp` as though an interval had two unknown ends.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

const EVALUATORS = ['    evaluators:', '      - { id: e, use: contains, with: { values: [yes] } }'];

let browser: Browser;
let dir = '';

before(async () => {
  browser = await launchBrowser();
  dir = scratch();
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: empty',
      '    testset: { path: none.jsonl }',
      '    allowEmpty: true',
      ...EVALUATORS,
      '  - id: s',
      '    testset: { path: rows.jsonl }',
      ...EVALUATORS,
      '',
    ].join('\n'),
    'none.jsonl': '',
    // Six rows: fewer could not reach 5% and show no interval (too few to test).
    'rows.jsonl': ['yes', 'no', 'no', 'yes', 'no', 'no']
      .map((output, n) => JSON.stringify({ n, output }))
      .join('\n'),
  });
  assert.equal((await runInProcess(['run', '-o', 'base.json'], dir)).code, 1);
  const head = await runInProcess(
    ['run', '-o', 'head.json', '--baseline', 'base.json', '--report', 'report.html'],
    dir,
  );
  assert.equal(head.code, 1, head.stderr);
});

after(() => browser.close());

/** What the page's table cells hold, typed here: the tests are type-checked without the DOM. */
type Row = { children: ArrayLike<{ textContent: string | null }> };

function cells(rows: Row[]): string[][] {
  return rows.map((row) => Array.from(row.children, (cell) => cell.textContent ?? ''));
}

describe('a comparison row with no paired case', () => {
  it('shows — for its interval, as for its other numbers', async () => {
    const page = await openFilePage(browser, join(dir, 'report.html'), '#comparison');
    const rows = await page.$$eval('#comparison tbody tr', cells);
    const empty = rows.filter((row) => row[0] === 'empty');
    assert.deepEqual(empty, [
      ['empty', 'pass rate', '—', '—', '—', '—', 'too few cases'],
      ['empty', 'e', '—', '—', '—', '—', 'too few cases'],
    ]);
    // A row with enough cases to test keeps its interval.
    const paired = rows.find((row) => row[0] === 's' && row[1] === 'pass rate');
    assert.equal(paired?.[5], '[0.0, 0.0] pp');
    await page.close();
  });
});
