/**
 * Seven to twelve evaluators fit the case table of a 1280 px window. At 80 px a score column,
 * seven of them pushed the table past the window: it scrolled sideways, the last evaluators out
 * of view, and the `why` column was at its least. From seven on each score is now a 40 px chip,
 * its evaluator's name written upwards above it (whole up to about a dozen characters, cut with `…`
 * past that, whole in the tooltip), and each chip says in its tooltip which evaluator it is.
 * Measured in Chromium on the reports of real runs of seven and of twelve evaluators, a grid of
 * two models, cases failing with reasons longer than the column.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

/** Twelve names as a suite names them, one longer than a header can show. */
const NAMES = [
  'exact',
  'mentions',
  'cites',
  'polite',
  'grounded',
  'short',
  'faithfulness-to-retrieved-context',
  'tone',
  'json-valid',
  'no-pii',
  'language',
  'answer-relevance',
];

/** The report of a run of the first `n` evaluators; every third case fails `exact` at length. */
async function reportOf(n: number): Promise<string> {
  const rows = Array.from({ length: 12 }, (_, i) => ({ q: `question ${i}`, n: i }));
  const dir = jsonlProject(
    rows,
    [
      'function: ./m.mjs#fn',
      'grid: { model: [small-model-2024, large-model-2025] }',
      'evaluators:',
      '  - { id: exact, use: is-equals, with: { expected: "the answer" } }',
      ...NAMES.slice(1, n).map(
        (id) => `  - { id: ${id}, use: contains, with: { values: [answer] } }`,
      ),
    ],
    {
      'm.mjs': `export function fn({ testCase }) { return testCase.n % 3 === 0 ? 'the answer, ${'explained at some length, '.repeat(6)}' : 'the answer'; }\n`,
    },
  );
  const run = await runInProcess(['run', '-o', 'results.json', '--report', 'report.html'], dir);
  assert.equal(run.code, 1, run.stderr);
  return join(dir, 'report.html');
}

let browser: Browser;
const reports = new Map<number, string>();

before(async () => {
  browser = await launchBrowser();
  for (const n of [7, 12]) reports.set(n, await reportOf(n));
});

after(() => browser.close());

type Box = { x: number; y: number; width: number; height: number };

async function boxOf(page: Page, selector: string): Promise<Box> {
  const box = await page.locator(selector).boundingBox();
  assert.ok(box !== null, selector);
  return box;
}

for (const n of [7, 12]) {
  describe(`${n} evaluators at 1280 px`, () => {
    it('every score in view, no sideways scroll, no note, why at 150 px or more', async () => {
      const page = await openFilePage(browser, reports.get(n) ?? '', '#case-rows .case');
      const widths = await page.evaluate<{ scroll: number; client: number; page: number }>(
        `(() => { const b = document.getElementById('case-rows'); return { scroll: b.scrollWidth, client: b.clientWidth, page: document.documentElement.scrollWidth }; })()`,
      );
      assert.ok(widths.scroll <= widths.client, JSON.stringify(widths));
      assert.ok(widths.page <= 1280, JSON.stringify(widths));
      assert.equal(await page.isVisible('#case-columns'), false);
      const table = await boxOf(page, '#case-rows');
      const heads = page.locator('#cases .row.head button[data-key^="score:"]');
      // Each header is its evaluator's, whole in the tooltip, in view.
      assert.deepEqual(await heads.allTextContents(), NAMES.slice(0, n));
      for (let i = 0; i < n; i++) {
        const head = heads.nth(i);
        assert.equal(await head.getAttribute('title'), NAMES[i]);
        const box = await head.boundingBox();
        assert.ok(box !== null);
        assert.ok(box.x >= table.x && box.x + box.width <= table.x + table.width, NAMES[i]);
      }
      // A row's chips: one per evaluator, each in view, each naming its evaluator on hover.
      const chips = page.locator('#case-rows .case.failed >> nth=0').locator('.scores > span');
      assert.equal(await chips.count(), n);
      assert.equal(await chips.first().getAttribute('title'), 'exact 0.000 (did not pass)');
      assert.equal(await chips.nth(1).getAttribute('title'), 'mentions 1.000');
      for (let i = 0; i < n; i++) {
        const box = await chips.nth(i).boundingBox();
        assert.ok(box !== null);
        assert.ok(box.x >= table.x && box.x + box.width <= table.x + table.width, `chip ${i}`);
        // Its header above it, centred on it: the chip reads as that evaluator's.
        const head = await heads.nth(i).boundingBox();
        assert.ok(head !== null);
        const centre = (b: Box): number => b.x + b.width / 2;
        assert.ok(Math.abs(centre(head) - centre(box)) <= 2, `header ${i} over its chip`);
      }
      const why = await boxOf(page, '#cases .row.head button[data-key="why"]');
      assert.ok(why.width >= 150, JSON.stringify(why));
      // The case and run columns still show names of a useful width.
      assert.ok((await boxOf(page, '#cases .row.head button[data-key="case"]')).width >= 180);
      assert.ok((await boxOf(page, '#cases .row.head button[data-key="run"]')).width >= 120);
      await page.close();
    });

    it('writes each name upwards, a long one cut with …, and the rows below the taller header', async () => {
      const page = await openFilePage(browser, reports.get(n) ?? '', '#case-rows .case');
      const exact = page.locator('#cases .row.head button[data-key="score:0"]');
      const box = await exact.boundingBox();
      assert.ok(box !== null);
      // Upwards: taller than wide.
      assert.ok(box.height > box.width, JSON.stringify(box));
      type Cell = { scrollHeight: number; clientHeight: number };
      const cut = (node: Cell): boolean => node.scrollHeight > node.clientHeight;
      assert.equal(await exact.evaluate(cut), false, 'exact is shown whole');
      if (n >= 7) {
        const long = page.locator('#cases .row.head button[data-key="score:6"]');
        assert.equal(await long.evaluate(cut), true, 'the long name is cut');
      }
      // The first row starts under the header, not behind it.
      const header = await boxOf(page, '#cases .row.head');
      const first = await boxOf(page, '#case-rows .case >> nth=0');
      assert.ok(first.y >= header.y + header.height - 1, JSON.stringify({ header, first }));
      assert.equal(first.height, 30);
      await page.close();
    });

    it("sorts by an evaluator when its upward name is clicked, as a column's header does", async () => {
      const page = await openFilePage(browser, reports.get(n) ?? '', '#case-rows .case');
      const exact = page.locator('#cases .row.head button[data-key="score:0"]');
      await exact.click();
      assert.equal(await exact.getAttribute('aria-sort'), 'ascending');
      // The lowest exact scores first: the cases that failed it.
      const first = page.locator('#case-rows .case >> nth=0');
      assert.match((await first.getAttribute('class')) ?? '', /\bfailed\b/);
      await exact.click();
      assert.equal(await exact.getAttribute('aria-sort'), 'descending');
      assert.match(
        (await page.locator('#case-rows .case >> nth=0').getAttribute('class')) ?? '',
        /\bpassed\b/,
      );
      await page.close();
    });
  });
}
