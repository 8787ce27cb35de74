/**
 * Every "N more characters" note counts characters as a person does, one per code point: the
 * terminal summary (which shows an evaluator's cut metadata), `evals show` and the HTML report
 * agree on an output of emoji, each of which is two UTF-16 units.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { truncateText } from '../src/evaluators/metadata.ts';
import { comparedOf } from '../src/report/html-model-compared.ts';
import { characterCount, cutText, startOf } from '../src/shared/cut-text.ts';
import type { CaseResult } from '../src/types/index.ts';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

/** 30,000 characters, 60,000 UTF-16 units. */
const OUTPUT = '😀'.repeat(30_000);

let browser: Browser;
let dir = '';
let summary = '';

before(async () => {
  browser = await launchBrowser();
  dir = jsonlProject(
    [{ n: 1, expected: 'hello', output: OUTPUT }],
    [
      'hash: [n]',
      'evaluators:',
      "  - { id: exact, use: is-equals, with: { expected: '{{case.expected}}' } }",
    ],
  );
  const run = await runInProcess(['run', '-o', 'results.json', '--report', 'report.html'], dir);
  assert.equal(run.code, 1, run.stderr);
  summary = run.stdout + run.stderr;
});

after(() => browser.close());

describe('the "more characters" notes', () => {
  it('count code points in the shared cut', () => {
    assert.equal(characterCount('a😀b'), 3);
    assert.equal(startOf('a😀b', 2), 'a😀');
    assert.deepEqual(cutText('a😀b😀', 2), { start: 'a😀', left: 2 });
    assert.deepEqual(cutText('a😀', 2), { start: 'a😀', left: 0 });
  });

  it('the report still finds the whole output behind a cut record, new or old', () => {
    const old = `${'😀'.repeat(250)}… (59,500 more characters)`;
    for (const actual of [truncateText(OUTPUT), old]) {
      const view = comparedOf(failed({ answer: OUTPUT }, actual), String);
      assert.equal(view?.what, 'output.answer (what exact compared)');
    }
  });

  it('the terminal summary counts what the evaluator left out in characters', () => {
    // is-equals records the first 500 characters of what it compared.
    assert.deepEqual(notes(summary), ['29,500']);
  });

  it('evals show counts in characters', async () => {
    const show = await runInProcess(['show', 'results.json', '--failed'], dir);
    assert.equal(show.code, 0, show.stderr);
    // The input and the output (600 characters shown each), then the evaluator's record.
    assert.deepEqual(notes(show.stdout), ['29,400', '29,400', '29,500']);
  });

  it('the HTML report counts in characters', async () => {
    const page = await openFilePage(browser, join(dir, 'report.html'), '#case-count');
    await page.click('#case-rows .case >> nth=0');
    await page.waitForSelector('#detail:not([hidden])');
    const output = (await page.textContent('#detail-output')) ?? '';
    assert.deepEqual(notes(output), ['10,000']);
    assert.equal(characterCount(output.slice(0, output.indexOf('\n…'))), 20_000);
    await page.close();
  });
});

/** The counts of every `N more characters` note in `text`, in order. */
function notes(text: string): string[] {
  return [...text.matchAll(/([\d,]+) more characters?/g)].map((match) => match[1] ?? '');
}

/** A failed case whose `exact` evaluation recorded `actual` as what it compared. */
function failed(output: unknown, actual: string): CaseResult {
  return {
    id: 'c1',
    contentId: 'c1',
    source: null,
    data: { expected: 'hello' },
    output,
    error: null,
    durationMs: 1,
    passed: false,
    evaluations: [
      {
        evaluator: 'exact',
        score: 0,
        threshold: { gte: 1 },
        passed: false,
        metadata: { expected: 'hello', actual },
        error: null,
        durationMs: 1,
      },
    ],
  };
}
