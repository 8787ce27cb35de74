/**
 * The HTML report's bar charts name each bar on their left axis: a run (`suite · key=value`) and,
 * for the baseline chart, what changed. Chart.js gives that axis at most half the chart and draws
 * a longer name from its right end, so the start of the name, which says which run it is, fell
 * off the canvas: two rows of a long grid value read the same. Each name now goes on lines that
 * fit, so nothing is drawn at the canvas's left edge.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { AXIS_LINE_CHARS, AXIS_MAX_LINES, axisLines } from '../report-app/chart-data.ts';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const MODELS = [
  'claude-3-5-sonnet-20241022-on-the-eu-deployment',
  'claude-3-5-haiku-20241022-on-the-eu-deployment',
];

/** 12 rows; in HEAD every third answer is wrong. */
const rows = (head: boolean): string =>
  Array.from({ length: 12 }, (_, n) =>
    JSON.stringify({ n, expected: `a${n}`, output: head && n % 3 === 0 ? 'wrong' : `a${n}` }),
  ).join('\n') + '\n';

let browser: Browser;
let dir = '';

before(async () => {
  browser = await launchBrowser();
  dir = jsonlProject(
    [],
    [
      'hash: [n]',
      'grid:',
      `  model: [${MODELS.join(', ')}]`,
      'evaluators:',
      "  - { id: answer-correctness, use: is-equals, with: { expected: '{{case.expected}}' } }",
    ],
    { 'rows.jsonl': rows(false) },
  );
  const base = await runInProcess(['run', '-o', 'base.json'], dir);
  assert.equal(base.code, 0, base.stderr);
  writeFileSync(join(dir, 'rows.jsonl'), rows(true));
  const head = await runInProcess(
    ['run', '-o', 'head.json', '--baseline', 'base.json', '--report', 'report.html'],
    dir,
  );
  // Its cases that fail now fail its gate (exit 1); the report is written all the same.
  assert.equal(head.code, 1, head.stderr);
});

after(() => browser.close());

describe('the HTML report names each bar of its charts in full', () => {
  it('draws no axis label past the left edge of any chart', async () => {
    const page = await openFilePage(browser, join(dir, 'report.html'), '#case-count');
    await page.waitForSelector('#chart-comparison');
    // Chart.js draws once the box is in the page; then each canvas's left 3 columns are read.
    await page.waitForFunction(
      "[...document.querySelectorAll('canvas')].every((c) => c.width > 0)",
    );
    const inked = await page.evaluate<[string, number][]>(
      `[...document.querySelectorAll('canvas')].map((canvas) => {
        const pixels = canvas.getContext('2d').getImageData(0, 0, 3, canvas.height).data;
        let count = 0;
        for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) count++;
        return [canvas.id, count];
      })`,
    );
    assert.ok(inked.length >= 3, JSON.stringify(inked));
    for (const [id, count] of inked) assert.equal(count, 0, `${id} is drawn at its left edge`);
    await page.close();
  });

  it('keeps what a bar measures when a long run name must be cut, so bars of a run read apart', () => {
    const run = `s · model=${MODELS[0]} prompt=prompts/a/very/long/path/to/the/prompt-file.md`;
    const pass = axisLines(run, 'pass rate');
    const score = axisLines(run, 'answer-correctness (lower is better)');
    for (const lines of [pass, score]) {
      assert.ok(lines.length <= AXIS_MAX_LINES, JSON.stringify(lines));
      for (const line of lines) assert.ok(line.length <= AXIS_LINE_CHARS, line);
    }
    assert.equal(pass.at(-1), 'pass rate');
    assert.deepEqual(score.slice(-2), ['answer-correctness', '(lower is better)']);
    assert.match(pass[0] ?? '', /^s ·/);
  });
});
