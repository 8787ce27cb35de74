/**
 * The case table's `why` column fits a 1280 px window. It took at least 220 px, which pushed a
 * suite of six evaluators past the window's width: the table scrolled sideways and said so,
 * where without the column every one fitted. Now it takes what the other columns leave, its
 * reasons cut there with `…` (whole in the tooltip), and the status, case and run columns keep
 * their widths. Measured in Chromium on a real run's report: a grid of two models, six
 * evaluators, cases failing with reasons longer than the column.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const EVALUATORS = ['exact', 'mentions', 'cites', 'polite', 'grounded', 'short'];

let browser: Browser;
let dir = '';

before(async () => {
  browser = await launchBrowser();
  const rows = Array.from({ length: 12 }, (_, n) => ({ q: `question ${n}`, n }));
  dir = jsonlProject(
    rows,
    [
      'function: ./m.mjs#fn',
      'grid: { model: [small-model-2024, large-model-2025] }',
      'evaluators:',
      '  - { id: exact, use: is-equals, with: { expected: "the answer" } }',
      '  - { id: mentions, use: contains, with: { values: [answer] } }',
      '  - { id: cites, use: contains, with: { values: [the] } }',
      '  - { id: polite, use: contains, with: { values: [a] } }',
      '  - { id: grounded, use: contains, with: { values: [n] } }',
      '  - { id: short, use: ./ev.mjs#short, threshold: { gte: 1 } }',
    ],
    {
      // Every third case answers at length, and fails `exact` and `short` with long reasons.
      'm.mjs': `export function fn({ testCase }) { return testCase.n % 3 === 0 ? 'the answer, ${'explained at some length, '.repeat(6)}' : 'the answer'; }\n`,
      'ev.mjs': `export const short = ({ output }) => output.length > 20 ? { score: 0, metadata: { reason: 'the answer runs to ' + output.length + ' characters where ${'a short answer would do, '.repeat(4)}' } } : { score: 1 };\n`,
    },
  );
  const run = await runInProcess(['run', '-o', 'results.json', '--report', 'report.html'], dir);
  assert.equal(run.code, 1, run.stderr);
});

after(() => browser.close());

/** The left edge and width of each header cell, by its text. */
async function columns(page: Page): Promise<Map<string, { x: number; width: number }>> {
  const cells = await page.locator('#cases .row.head button').all();
  const found = new Map<string, { x: number; width: number }>();
  for (const cell of cells) {
    const box = await cell.boundingBox();
    assert.ok(box !== null);
    found.set((await cell.textContent()) ?? '', { x: box.x, width: box.width });
  }
  return found;
}

describe('the why column at 1280 px', () => {
  it('leaves every column of six evaluators in view: no sideways scroll, no note', async () => {
    const page = await openFilePage(browser, join(dir, 'report.html'), '#case-rows .case');
    const widths = await page.evaluate<{ scroll: number; client: number; page: number }>(
      `(() => { const b = document.getElementById('case-rows'); return { scroll: b.scrollWidth, client: b.clientWidth, page: document.documentElement.scrollWidth }; })()`,
    );
    assert.ok(widths.scroll <= widths.client, JSON.stringify(widths));
    assert.ok(widths.page <= 1280, JSON.stringify(widths));
    assert.equal(await page.isVisible('#case-columns'), false);
    const box = await page.locator('#case-rows').boundingBox();
    assert.ok(box !== null);
    const cols = await columns(page);
    assert.deepEqual(
      [...cols.keys()],
      ['status', 'case', 'why', 'run', 'ms', ...EVALUATORS.map((id) => id)],
    );
    for (const [name, col] of cols) {
      assert.ok(col.x >= box.x && col.x + col.width <= box.x + box.width, `${name} in view`);
    }
    // Status, case and run keep their widths; why gets what is left, still a few words.
    assert.equal(cols.get('status')?.width, 90);
    assert.ok((cols.get('case')?.width ?? 0) >= 200, JSON.stringify(cols.get('case')));
    assert.ok((cols.get('run')?.width ?? 0) >= 140, JSON.stringify(cols.get('run')));
    assert.ok((cols.get('why')?.width ?? 0) >= 120, JSON.stringify(cols.get('why')));
    await page.close();
  });

  it("cuts a reason wider than the column with '…', whole in its tooltip, in a row of 30 px", async () => {
    const page = await openFilePage(browser, join(dir, 'report.html'), '#case-rows .case');
    const cell = page.locator('#case-rows .case.failed .why >> nth=0');
    // Typed here: the tests are type-checked without the DOM.
    type Cell = { scrollWidth: number; clientWidth: number; title: string };
    type Styles = { getComputedStyle(node: Cell): { textOverflow: string } };
    const cut = await cell.evaluate((node: Cell) => ({
      overflow: node.scrollWidth > node.clientWidth,
      style: (globalThis as unknown as Styles).getComputedStyle(node).textOverflow,
      title: node.title,
    }));
    assert.equal(cut.overflow, true, 'the reason is wider than its column');
    assert.equal(cut.style, 'ellipsis');
    assert.match(
      cut.title,
      /^exact 0 \(needs \u2265 1\): expected "the answer", got "the answer, /,
    );
    const row = await page.locator('#case-rows .case.failed >> nth=0').boundingBox();
    assert.equal(row?.height, 30);
    await page.close();
  });
});
