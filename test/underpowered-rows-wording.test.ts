/**
 * A row that could not have seen the suite's `gate.minDetectableEffect` is not called
 * `unchanged`. The PR comment's table said `⚪ unchanged` beside an evaluator whose 12 cases could
 * detect only a change of 0.58, and the page said `unchanged` with no hint at all, while the
 * newly failing list of the same grid point already called its pass rate `not significant` with
 * what it could detect. Every form now calls such a row `not significant (underpowered: could
 * detect ±…)` (the text and the statistics add the cases it would need), pass rate and
 * evaluator rows alike, and counts it apart in the summary line. A row where no case changed is
 * still `unchanged`: that is what the data show. Checked on the words themselves, on a real
 * comparison's PR comment as cmark-gfm (GitHub's renderer) renders it, and on the HTML page in
 * Chromium.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { simulateComparison } from '../bench/stats-model.ts';
import { renderComparisonMarkdown } from '../src/report/comparison-markdown.ts';
import { pointsSize, scoreSize, shownWords, verdictWords } from '../src/report/row-power.ts';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { evaluatorRow } from './helpers/comparison-rows.ts';
import { renderGfm } from './helpers/gfm.ts';
import { baseAndHead, commentAndPage } from './helpers/comment-and-page.ts';

const WEAK = { detectable: 0.26, underpowered: true, casesNeeded: 273 };
const STRONG = { detectable: 0.06, underpowered: false, casesNeeded: null };

describe("what a row that found no change is called, by what it could've seen", () => {
  const unchanged = evaluatorRow('e', 'unchanged', { p: 0.5 });

  it('underpowered, some case changed: not significant, with what it could detect', () => {
    const row = { ...unchanged, power: WEAK };
    assert.equal(shownWords(row), 'not significant');
    assert.equal(
      verdictWords(row, scoreSize),
      'not significant (underpowered: could detect ±0.26)',
    );
    assert.equal(
      verdictWords(row, pointsSize),
      'not significant (underpowered: could detect ±26.0 pp)',
    );
  });

  it('past the whole range: too few cases to detect any change', () => {
    const row = { ...unchanged, power: { ...WEAK, detectable: 1.4 } };
    assert.equal(
      verdictWords(row, scoreSize),
      'not significant (underpowered: too few cases to detect any change)',
    );
  });

  it('powered: unchanged', () => {
    assert.equal(verdictWords({ ...unchanged, power: STRONG }, scoreSize), 'unchanged');
  });

  it('no case changed (out of the family): unchanged, whatever more cases could see', () => {
    const row = { ...unchanged, power: WEAK, adjustedP: null, qValue: null };
    assert.equal(verdictWords(row, scoreSize), 'unchanged');
  });

  it('a possible regression keeps its own words', () => {
    const row = { ...evaluatorRow('e', 'regressed', { p: 0.01, holm: 0.2, q: 0.03 }), power: WEAK };
    assert.equal(verdictWords(row, scoreSize), 'possible regression');
  });
});

describe("the PR comment's table when it folds rows", () => {
  it('does not call the folded rows unchanged when some moved but could not see the change', () => {
    // 32 rows of 20 cases a grid point, nothing changed: most rows move, none can see 10 points.
    const comparison = simulateComparison(3, {
      name: 'small',
      kind: 'binary',
      passRate: 0.8,
      cases: 20,
      suites: 2,
      gridPoints: 4,
      evaluators: 3,
      trials: 1,
    });
    const html = renderGfm(renderComparisonMarkdown(comparison, { statistics: false }));
    assert.match(html, /⚪ \d+ unchanged or not significant rows folded/);
    assert.ok(!/⚪ \d+ unchanged rows folded/.test(html), html);
  });
});

/** 12 rows whose recorded output is right but, in HEAD, for the first one. */
const rows = (head: boolean): Record<string, unknown>[] =>
  Array.from({ length: 12 }, (_, n) => ({
    n,
    output: head && n < 1 ? 'no idea' : `answer ${n}`,
  }));
const SUITE = ['hash: [n]', 'evaluators: [ { id: e, use: contains, with: { values: [answer] } } ]'];

/** The cells of each body row of the first table of `html`, tags dropped. */
function firstTable(html: string): string[][] {
  const table = /<table>[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(table)?.[1] ?? '';
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...(row[1] ?? '').matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) =>
      (cell[1] ?? '').replace(/<[^>]+>/g, ''),
    ),
  );
}

describe('one case of 12 fails now', () => {
  let browser: Browser;
  let dir = '';
  let html = '';

  before(async () => {
    browser = await launchBrowser();
    dir = await baseAndHead(rows(false), rows(true), SUITE);
    html = renderGfm(await commentAndPage(dir));
  });

  after(() => browser.close());

  it('the PR comment calls both rows not significant, with what 12 cases could detect', () => {
    assert.ok(html.includes('0 unchanged · 2 not significant (underpowered)'), html);
    assert.deepEqual(firstTable(html), [
      [
        's',
        'pass rate',
        '100.0% → 91.7%',
        '-8.3 pp',
        '⚪ not significant (underpowered: could detect ±58.3 pp)',
      ],
      [
        's',
        'e',
        '1.000 → 0.917',
        '-0.083',
        '⚪ not significant (underpowered: could detect ±0.58)',
      ],
    ]);
    // The footnote says what the words mean.
    assert.ok(
      html.includes(
        "&quot;not significant (underpowered)&quot;: no significant change, but too few cases to see a change of the suite's gate.minDetectableEffect",
      ),
      html,
    );
    // The statistics say it too, with the cases it would take.
    assert.match(
      html,
      /e: 1\.000 → 0\.917 \([^)]*\) not significant · \(underpowered: could detect ±0\.58, ~80 cases needed for ±0\.10\)/,
    );
  });

  it('the HTML page says the same in its comparison table', async () => {
    const page = await openFilePage(browser, join(dir, 'report.html'), '#comparison');
    const cells = await page.locator('#comparison table tbody tr td:last-child').allTextContents();
    assert.deepEqual(cells, [
      'not significant (underpowered: could detect ±58.3 pp)',
      'not significant (underpowered: could detect ±0.58)',
    ]);
    await page.close();
  });
});
