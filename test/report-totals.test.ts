import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { renderSummary } from '../src/report/summary-table.ts';
import { runTotals } from '../src/report/totals.ts';
import { fixtureRuns } from './report-fixture.ts';
import { failingRun, passingRun } from './report-fixture-large.ts';

describe('runTotals', () => {
  it('is all zero for no runs', () => {
    assert.deepEqual(runTotals([]), {
      runs: 0,
      failedRuns: 0,
      cases: 0,
      passed: 0,
      failed: 0,
      errored: 0,
    });
  });

  it('sums the summaries of every run and counts the runs that failed', () => {
    // Run 1: 2 passed; run 2: 1 passed, 4 failed, 1 errored, verdict fail.
    assert.deepEqual(runTotals(fixtureRuns()), {
      runs: 2,
      failedRuns: 1,
      cases: 8,
      passed: 3,
      failed: 4,
      errored: 1,
    });
    assert.deepEqual(runTotals([passingRun({ m: 'a' }), failingRun(3), passingRun({ m: 'b' })]), {
      runs: 3,
      failedRuns: 1,
      cases: 5,
      passed: 2,
      failed: 3,
      errored: 0,
    });
  });

  it('reads the summaries, not the cases, so reduced or dropped cases do not change it', () => {
    const runs = fixtureRuns().map((run) => ({ ...run, cases: [] }));
    assert.deepEqual(runTotals(runs), runTotals(fixtureRuns()));
  });

  it('is what the terminal verdict line states', () => {
    const line = renderSummary(fixtureRuns(), { color: false }).trim().split('\n').at(-1);
    const t = runTotals(fixtureRuns());
    assert.equal(
      line,
      `FAIL  ${t.failedRuns} of ${t.runs} runs failed · ${t.cases} cases: ${t.passed} passed, ${t.failed} failed, ${t.errored} errored`,
    );
  });
});
