/**
 * The HTML report in a real browser (headless Chromium, from file://): what a user sees first
 * (the verdict, the matrix, the charts), the case table's filters and search leading to a
 * failing case's detail, the baseline comparison, a hostile output that stays text, no request
 * leaving the file, no console error; and 10,000 cases, whose load and filter times are noted.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { serializeArtifact } from '../src/artifact/artifact.ts';
import { validateArtifact } from '../src/artifact/schema.ts';
import type { CaseResult } from '../src/types/index.ts';
import { launchBrowser, watchedPage } from './helpers/browser.ts';
import { runInProcess } from './helpers/in-process.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';
import { showProject } from './helpers/show-project.ts';
import { artifactOf, passingRun } from './report-fixture-large.ts';
import { caseResult, evaluation } from './report-fixture.ts';

let browser: Browser;
let dir = '';

before(async () => {
  browser = await launchBrowser();
  dir = showProject();
  // The baseline: the large model also got the refund question wrong then.
  const base = await runInProcess(['run', '-o', 'base.json'], dir);
  assert.equal(base.code, 1, base.stderr);
  const app = join(dir, 'app.mjs');
  writeFileSync(
    app,
    readFileSync(app, 'utf8').replace(
      "if (q === 'Write an essay')",
      "if (q === 'Write an essay' && params.model === 'small')",
    ),
  );
  // In a process of its own: this one holds the first app.mjs in its module cache.
  const head = await runCli(['run', '--report', 'report.html'], { cwd: dir });
  assert.equal(head.code, 1, head.stderr);
  assert.match(head.stderr, /HTML report written to report\.html/);
});

after(() => browser.close());

const url = (name: string): string => pathToFileURL(join(dir, name)).href;

describe('evals run --report', () => {
  it('shows the verdict, the grid matrix and the charts, with no console error and no request off file://', async () => {
    const { page, errors, requests } = await watchedPage(browser);
    await page.goto(url('report.html'));
    await page.waitForSelector('#case-count');
    assert.equal((await page.textContent('#verdict .word'))?.trim(), 'FAIL');
    assert.match(
      (await page.textContent('#verdict .sentence')) ?? '',
      /2 of 2 runs failed their gates/,
    );
    assert.equal(await page.locator('.matrix tbody tr').count(), 2);
    assert.match((await page.textContent('.matrix')) ?? '', /★/);
    for (const id of ['chart-scores', 'chart-pass-rate']) {
      const size = await page.$eval(
        `#${id}`,
        (canvas) => (canvas as unknown as { width: number }).width,
      );
      assert.ok(size > 0, `${id} is drawn`);
    }
    assert.match((await page.textContent('#gate')) ?? '', /all cases pass/);
    assert.deepEqual(errors, []);
    assert.deepEqual(
      requests.filter((r) => !r.startsWith('file://') && !r.startsWith('data:')),
      [],
    );
    await page.close();
  });

  it('allows no inline style, yet the charts and the case rows get their sizes and places', async () => {
    const { page, errors } = await watchedPage(browser);
    await page.goto(url('report.html'));
    await page.waitForSelector('.row.case');
    const policy =
      (await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content')) ?? '';
    assert.match(policy, /style-src 'sha256-[^']+'/);
    assert.doesNotMatch(policy, /unsafe-inline|style-src-attr/);
    // Each chart's frame is as tall as the script made it (not a canvas's default 150 px). The
    // page's own code, as a string: the tests are type-checked without the DOM's types.
    const frames = await page.evaluate<[string, string][]>(
      `[...document.querySelectorAll('.chart .canvas')].map((n) => [n.style.height, getComputedStyle(n).height])`,
    );
    assert.ok(frames.length >= 2, 'two charts');
    for (const [set, computed] of frames) assert.equal(computed, set);
    assert.ok(frames.some(([set]) => set !== '150px'));
    // The case rows are laid out in columns, one below the other.
    const rows = await page.evaluate<{ top: string; columns: number }[]>(
      `[...document.querySelectorAll('.row.case')].slice(0, 2).map((n) => ({ top: getComputedStyle(n).top, columns: getComputedStyle(n).gridTemplateColumns.split(' ').length }))`,
    );
    assert.equal(rows.length, 2);
    assert.ok(
      rows.every((row) => row.columns >= 5),
      JSON.stringify(rows),
    );
    assert.notEqual(rows[0]?.top, rows[1]?.top);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('filters to failed cases, searches, and opens a case with its output, diff and reasons', async () => {
    const { page, errors } = await watchedPage(browser);
    await page.goto(url('report.html'));
    await page.waitForSelector('#case-count');
    assert.match((await page.textContent('#case-count')) ?? '', /^12 of 12 cases$/);
    await page.selectOption('#filter-status', 'failed');
    assert.match((await page.textContent('#case-count')) ?? '', /^5 of 12 cases$/);
    await page.fill('#filter-search', 'refund');
    assert.match((await page.textContent('#case-count')) ?? '', /^2 of 12 cases$/);
    await page.click('#case-rows .case >> nth=0');
    assert.equal(await page.textContent('#detail-output'), 'Yes');
    assert.equal(await page.textContent('#detail-expected'), '30 days');
    assert.equal(await page.textContent('#detail-diff del'), '30 days');
    assert.equal(await page.textContent('#detail-diff ins'), 'Yes');
    assert.match(
      (await page.textContent('#detail-evaluations')) ?? '',
      /expected "30 days", got "Yes"/,
    );
    await page.keyboard.press('Escape');
    await page.selectOption('#filter-status', 'errored');
    await page.fill('#filter-search', '');
    assert.match((await page.textContent('#case-count')) ?? '', /^4 of 12 cases$/);
    await page.selectOption('#filter-status', 'all');
    await page.selectOption('#filter-evaluator', { label: 'short did not pass' });
    assert.match((await page.textContent('#case-count')) ?? '', /^1 of 12 cases$/);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('keeps a hostile output inert: shown as text, its script never run', async () => {
    const { page, errors } = await watchedPage(browser);
    await page.goto(url('report.html'));
    await page.waitForSelector('#case-count');
    await page.fill('#filter-search', 'say sorry');
    await page.click('#case-rows .case >> nth=0');
    const output = await page.textContent('#detail-output');
    assert.match(output ?? '', /<script>window\.__pwned = 1<\/script>/);
    assert.equal(await page.evaluate('typeof window.__pwned'), 'undefined');
    assert.equal(await page.$$eval('script', (scripts) => scripts.length), 2);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('says an errored case has no output, with no "null" and no diff against it', async () => {
    const { page, errors } = await watchedPage(browser);
    await page.goto(url('report.html'));
    await page.waitForSelector('#case-count');
    await page.fill('#filter-search', 'judge-call-2');
    await page.click('#case-rows .case >> nth=0');
    await page.waitForSelector('#detail-error');
    assert.equal(await page.textContent('#detail-output'), 'no output (the case errored)');
    // What the row expected still shows; there is nothing to set it against.
    assert.equal(await page.textContent('#detail-expected'), 'ok');
    assert.equal(await page.locator('#detail-diff').count(), 0);
    assert.equal(await page.locator('#detail-diff-title').count(), 0);
    assert.doesNotMatch((await page.textContent('#detail')) ?? '', /\bnull\b/);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('sorts by a column when its header is clicked', async () => {
    const { page } = await watchedPage(browser);
    await page.goto(url('report.html'));
    await page.waitForSelector('#case-count');
    await page.click('button[data-key="duration"]');
    assert.equal(await page.getAttribute('button[data-key="duration"]', 'aria-sort'), 'ascending');
    await page.click('button[data-key="duration"]');
    assert.equal(await page.getAttribute('button[data-key="duration"]', 'aria-sort'), 'descending');
    await page.close();
  });
});

describe('evals report', () => {
  it('--baseline adds the comparison table and its confidence-interval chart', async () => {
    const written = await runInProcess(
      ['report', 'evals-results.json', '-o', 'compared.html', '--baseline', 'base.json'],
      dir,
    );
    assert.equal(written.code, 0, written.stderr);
    const { page, errors } = await watchedPage(browser);
    await page.goto(url('compared.html'));
    await page.waitForSelector('#comparison');
    assert.match((await page.textContent('#comparison')) ?? '', /pass rate/);
    assert.ok(
      (await page.$eval('#chart-comparison', (c) => (c as unknown as { width: number }).width)) > 0,
    );
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('refuses bad input with exit 2 and one clear line', async () => {
    const missing = await runInProcess(['report', 'nope.json'], dir);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^error: .*nope\.json/);
    const same = await runInProcess(
      ['report', 'evals-results.json', '-o', 'evals-results.json'],
      dir,
    );
    assert.equal(same.code, 2);
    assert.match(same.stderr, /the results file itself/);
    const folder = await runInProcess(['report', 'evals-results.json', '-o', '.'], dir);
    assert.equal(folder.code, 2);
    assert.match(folder.stderr, /is a folder/);
    for (const result of [missing, same, folder]) assert.doesNotMatch(result.stderr, /\n\s+at /);
  });
});

describe('tags', () => {
  it('are written in the artifact and filter the case table of the HTML report', async () => {
    const tagged = scratch();
    writeFiles(tagged, {
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: s',
        '    testset: { path: rows.jsonl }',
        '    evaluators:',
        '      - use: is-equals',
        "        with: { expected: '{{case.expected}}' }",
        '',
      ].join('\n'),
      'rows.jsonl': [
        { __dedup_id__: 'refund-1', output: 'yes', expected: 'yes', __tags__: ['refund'] },
        { __dedup_id__: 'refund-2', output: 'no', expected: 'yes', __tags__: ['refund', 'angry'] },
        { __dedup_id__: 'hello', output: 'hi', expected: 'hi', __tags__: ['greeting'] },
        { __dedup_id__: 'plain', output: 'x', expected: 'x' },
      ]
        .map((row) => JSON.stringify(row))
        .join('\n'),
    });
    const ran = await runInProcess(['run', '-o', 'tagged.json', '--report', 'tagged.html'], tagged);
    assert.equal(ran.code, 1, ran.stderr);
    const artifact = JSON.parse(readFileSync(join(tagged, 'tagged.json'), 'utf8')) as {
      runs: { cases: { id: string; tags?: string[] }[] }[];
    };
    assert.deepEqual(validateArtifact(artifact), []);
    assert.deepEqual(
      artifact.runs[0]?.cases.map((c) => [c.id, c.tags]),
      [
        ['refund-1', ['refund']],
        ['refund-2', ['refund', 'angry']],
        ['hello', ['greeting']],
        // No tags: no key at all.
        ['plain', undefined],
      ],
    );
    assert.ok(!('tags' in (artifact.runs[0]?.cases[3] ?? {})));
    // With trials, the case folded from them keeps its row's tags too.
    const trials = await runInProcess(['run', '-o', 'trials.json', '--trials', '2'], tagged);
    assert.equal(trials.code, 1, trials.stderr);
    const folded = JSON.parse(readFileSync(join(tagged, 'trials.json'), 'utf8')) as typeof artifact;
    assert.deepEqual(folded.runs[0]?.cases[1]?.tags, ['refund', 'angry']);

    const { page, errors } = await watchedPage(browser);
    await page.goto(pathToFileURL(join(tagged, 'tagged.html')).href);
    await page.waitForSelector('#case-count');
    assert.equal(await page.textContent('#case-count'), '4 of 4 cases');
    type Row = { getAttribute(name: string): string | null };
    const shownIds = async (): Promise<string[]> =>
      (
        await page.$$eval('#case-rows .case', (rows: Row[]) =>
          rows.map((row) => row.getAttribute('data-id') ?? ''),
        )
      ).sort();
    await page.selectOption('#filter-tag', { label: 'tagged refund' });
    assert.equal(await page.textContent('#case-count'), '2 of 4 cases');
    assert.deepEqual(await shownIds(), ['refund-1', 'refund-2']);
    await page.selectOption('#filter-tag', { label: 'tagged greeting' });
    assert.deepEqual(await shownIds(), ['hello']);
    // The detail says the tags too.
    await page.click('#case-rows .case >> nth=0');
    assert.match((await page.textContent('#detail .meta')) ?? '', /tags: greeting$/);
    await page.keyboard.press('Escape');
    // With the status filter: the failing refund case only.
    await page.selectOption('#filter-tag', { label: 'tagged refund' });
    await page.selectOption('#filter-status', 'failed');
    assert.deepEqual(await shownIds(), ['refund-2']);
    await page.selectOption('#filter-status', 'all');
    await page.selectOption('#filter-tag', { label: 'any tag' });
    assert.equal(await page.textContent('#case-count'), '4 of 4 cases');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('the case table has no tag filter when no case has a tag', async () => {
    const { page } = await watchedPage(browser);
    await page.goto(url('report.html'));
    await page.waitForSelector('#case-count');
    assert.equal(await page.locator('#filter-tag').count(), 0);
    await page.close();
  });
});

describe('a report of 10,000 cases', () => {
  it('loads, filters and searches in the browser (times in the note)', async (t) => {
    const big = scratch();
    const runs = [0, 1].map((point) => {
      const run = passingRun({ model: point === 0 ? 'small' : 'large' }, 3);
      run.cases = Array.from({ length: 5000 }, (_, n): CaseResult => {
        const failed = n % 10 === point;
        return caseResult(n + 1, {
          id: `case-${String(n).padStart(5, '0')}`,
          output: `answer ${n} ${'lorem ipsum '.repeat(10)}`,
          passed: !failed,
          evaluations: [evaluation('exact', failed ? 0 : 1, { gte: 1 })],
        });
      });
      run.summary = {
        ...run.summary,
        cases: 5000,
        passed: 4500,
        failed: 500,
        errored: 0,
        passRate: 0.9,
      };
      return run;
    });
    writeFileSync(join(big, 'big.json'), serializeArtifact(artifactOf(runs)));
    const written = await runInProcess(['report', 'big.json', '-o', 'big.html'], big);
    assert.equal(written.code, 0, written.stderr);

    const { page, errors } = await watchedPage(browser);
    const t0 = performance.now();
    await page.goto(pathToFileURL(join(big, 'big.html')).href);
    await page.waitForSelector('#case-count');
    const loadMs = performance.now() - t0;
    assert.equal(await page.textContent('#case-count'), '10,000 of 10,000 cases');
    // Timed in the page, around the change event the filter listens to (the DOM work included).
    const timed = (id: string, event: string, value: string): Promise<number> =>
      page.evaluate(
        `(() => { const control = document.getElementById(${JSON.stringify(id)}); const start = performance.now(); control.value = ${JSON.stringify(value)}; control.dispatchEvent(new Event(${JSON.stringify(event)})); return performance.now() - start; })()`,
      );
    const filterMs = await timed('filter-status', 'change', 'failed');
    assert.equal(await page.textContent('#case-count'), '1,000 of 10,000 cases');
    const searchMs = await timed('filter-search', 'input', 'answer 4240 ');
    assert.equal(await page.textContent('#case-count'), '1 of 10,000 cases');
    // Only the rows in view are in the document.
    assert.ok((await page.$$eval('#case-rows .case', (rows) => rows.length)) <= 60);
    assert.deepEqual(errors, []);
    const size = readFileSync(join(big, 'big.html')).length;
    t.diagnostic(
      `10,000 cases: file ${(size / 1e6).toFixed(1)} MB; load to table ${loadMs.toFixed(0)} ms; status filter ${filterMs.toFixed(1)} ms; search ${searchMs.toFixed(1)} ms`,
    );
    await page.close();
  });
});
