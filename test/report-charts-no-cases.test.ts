/**
 * The HTML report's charts for runs with no case (a suite whose testset matched nothing):
 * - such a run has no pass rate, shown as `—` in the terminal and the page's tables, so the pass
 *   rate chart draws no bar for it rather than one of 0%;
 * - a report where no case ran has nothing to chart, so it has no chart section, not empty
 *   axes (and no page error).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { passRatePercents, scoreBins } from '../report-app/chart-data.ts';
import { buildReportModel, type ReportModel } from '../src/report/html-model.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

const SUITE = ['    evaluators:', '      - { id: e, use: contains, with: { values: [yes] } }'];

/** A project with an empty suite and, unless `onlyEmpty`, a suite of three rows. */
function project(onlyEmpty: boolean): string {
  const dir = scratch();
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: empty',
      '    testset: { path: none.jsonl }',
      '    allowEmpty: true',
      ...SUITE,
      ...(onlyEmpty ? [] : ['  - id: s', '    testset: { path: rows.jsonl }', ...SUITE]),
      '',
    ].join('\n'),
    'none.jsonl': '',
    'rows.jsonl': ['yes', 'no', 'no'].map((output, n) => JSON.stringify({ n, output })).join('\n'),
  });
  return dir;
}

async function reportOf(dir: string): Promise<ReportModel> {
  const run = await runInProcess(['run', '-o', 'results.json', '--report', 'report.html'], dir);
  assert.ok(run.code === 0 || run.code === 1, run.stderr);
  const artifact = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as ResultsArtifact;
  return buildReportModel(artifact, (run) => artifact.runs[run]?.cases ?? []);
}

let browser: Browser;

before(async () => {
  browser = await launchBrowser();
});

after(() => browser.close());

describe('the charts of runs with no case', () => {
  it('draw no pass-rate bar for a run with no case, and count only scored cases', async () => {
    const model = await reportOf(project(false));
    assert.deepEqual(
      model.runs.map((run) => run.name),
      ['empty', 's'],
    );
    const rates = passRatePercents(model);
    assert.equal(rates?.[0], null);
    assert.ok(Math.abs((rates?.[1] ?? 0) - 100 / 3) < 1e-9, String(rates?.[1]));
    const bins = scoreBins(model);
    assert.deepEqual(
      bins?.counts.map((row) => row.reduce((a, b) => a + b, 0)),
      [3],
    );
  });

  it('leave the chart section out when no case ran at all', async () => {
    const dir = project(true);
    const model = await reportOf(dir);
    assert.equal(scoreBins(model), null);
    assert.equal(passRatePercents(model), null);
    const page = await openFilePage(browser, join(dir, 'report.html'), '#case-count');
    assert.equal(await page.locator('#charts').count(), 0);
    assert.equal(await page.locator('#matrices').count(), 1);
    await page.close();
  });
});
