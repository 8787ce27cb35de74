/**
 * The HTML report's tables, in real chromium:
 * - the case table has a column for every evaluator (20 here: twelve fit a 1280 px window as
 *   compact chips, twenty do not), scrolls sideways to the last one, and says so when they do
 *   not fit (QA D11);
 * - each run's trials, flaky cases and the cost of its model calls are in the per-run tables
 *   (the grid matrix and the table of runs), as the artifact records them (QA D12);
 * - numbers read alike everywhere: grouped counts and seconds, costs with the digits they need
 *   (QA D13).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { serializeArtifact } from '../src/artifact/artifact.ts';
import { validateArtifact } from '../src/artifact/schema.ts';
import type { RunResult, Usage } from '../src/types/index.ts';
import { launchBrowser, openFilePage, textNow } from './helpers/browser.ts';
import { scratch } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';
import { artifactOf, passingRun } from './report-fixture-large.ts';

const EVALUATORS = 20;

function usage(calls: number, cost: number | null, latencyMs = 5): Usage {
  return {
    calls,
    cacheHits: 0,
    promptTokens: 10 * calls,
    completionTokens: calls,
    cost,
    latencyMs,
  };
}

/** A run of `suite` with trials, flaky cases and model calls as given. */
function run(
  suite: string,
  params: Record<string, unknown>,
  options: { evaluators: number; trials: number; flaky?: number; usage?: Usage },
): RunResult {
  const result = passingRun(params, options.evaluators);
  result.suite = suite;
  result.plan = {
    evaluators: Object.keys(result.summary.evaluators),
    trials: options.trials,
    gate: {},
  };
  if (options.flaky !== undefined) result.summary.flaky = options.flaky;
  if (options.usage !== undefined) result.summary.usage = options.usage;
  return result;
}

let browser: Browser;
let dir = '';

before(async () => {
  browser = await launchBrowser();
  dir = scratch();
  const artifact = artifactOf([
    run(
      'grid',
      { k: 'a' },
      { evaluators: EVALUATORS, trials: 3, flaky: 2, usage: usage(1500, 1234.5, 4_567_790) },
    ),
    run(
      'grid',
      { k: 'b' },
      { evaluators: EVALUATORS, trials: 3, flaky: 0, usage: usage(20, null) },
    ),
    run('single', {}, { evaluators: 1, trials: 1, usage: usage(3, 0.0123) }),
  ]);
  artifact.durationMs = 3_723_400;
  assert.deepEqual(validateArtifact(artifact), []);
  writeFileSync(join(dir, 'results.json'), serializeArtifact(artifact));
  const written = await runInProcess(['report', 'results.json', '-o', 'report.html'], dir);
  assert.equal(written.code, 0, written.stderr);
});

after(() => browser.close());

function openReport(): Promise<Page> {
  return openFilePage(browser, join(dir, 'report.html'), '.row.case');
}

/** A table's header cells and its rows' cells, as text. */
async function tableText(page: Page, selector: string): Promise<string[][]> {
  const head = await page.locator(`${selector} thead th`).allTextContents();
  const rows = await page.locator(`${selector} tbody tr`).all();
  return [head, ...(await Promise.all(rows.map((row) => row.locator('td').allTextContents())))];
}

describe('every evaluator in the case table (D11)', () => {
  it('has a column per evaluator, reached by scrolling sideways, and says so', async () => {
    const page = await openReport();
    const heads = await page.locator('#cases .row.head button').allTextContents();
    assert.deepEqual(heads, [
      'status',
      'case',
      'why',
      'run',
      'ms',
      ...Array.from({ length: EVALUATORS }, (_, i) => `evaluator-${i + 1}`),
    ]);
    const cells = await page.locator('#case-rows .case >> nth=0').locator('span').count();
    // Status, case, why (empty for a case that passed), run, ms, then the evaluators.
    assert.equal(cells, 5 + EVALUATORS);
    assert.equal(
      await textNow(page, '#case-columns'),
      '20 evaluator columns, every one shown: scroll the table sideways to see those out of view.',
    );
    assert.equal(await page.isVisible('#case-columns'), true);
    // Scrolled to the right, the last evaluator's header is inside the table's box.
    await page.evaluate(
      `(() => { const b = document.getElementById('case-rows'); b.scrollLeft = b.scrollWidth; })()`,
    );
    const box = await page.locator('#case-rows').boundingBox();
    const last = await page.locator(`button[data-key="score:${EVALUATORS - 1}"]`).boundingBox();
    assert.ok(box !== null && last !== null);
    assert.ok(
      last.x >= box.x && last.x + last.width <= box.x + box.width,
      JSON.stringify({ box, last }),
    );
    await page.close();
  });
});

describe('trials, flaky cases and cost per run (D12)', () => {
  it('the grid matrix has each grid point’s trials, flaky cases and cost', async () => {
    const page = await openReport();
    const [head, a, b] = await tableText(page, '.matrix table');
    assert.deepEqual(head?.slice(-3), ['trials', 'flaky', 'cost']);
    assert.deepEqual(a?.slice(-3), ['3', '2', '$1,234.50']);
    // A model without a price: the cost is unknown, not $0.
    assert.deepEqual(b?.slice(-3), ['3', '0', 'unknown']);
    await page.close();
  });

  it('the table of runs without a grid has the cost, and no trials columns for one trial', async () => {
    const page = await openReport();
    const [head, single] = await tableText(page, '#matrices > table');
    assert.deepEqual(head, [
      'run',
      'verdict',
      'cases',
      'pass rate',
      'failed',
      'errored',
      'cost',
      'evaluator means',
    ]);
    assert.equal(single?.[6], '$0.0123');
    await page.close();
  });
});

describe('numbers in one format (D13)', () => {
  it('groups the seconds of the run and of its model calls, and the count of calls', async () => {
    const page = await openReport();
    const meta = await page.locator('#verdict .meta').allTextContents();
    assert.match(meta[0] ?? '', / · 3,723\.4 s · /);
    assert.match(meta[1] ?? '', /^model calls: 1,523 · /);
    assert.match(
      meta[1] ?? '',
      /cost: unknown \(no price for a model used, or tokens not reported\) · time in calls: 4,567\.8 s$/,
    );
    await page.close();
  });
});
