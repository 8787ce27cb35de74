/**
 * A judge's κ row over thousands of labelled rows whose κ collapses (1 → 0 over 12,000 rows, 6,000
 * verdicts changed): its test takes the normal approximation, whose p-value underflows to 0, and
 * the interval built from that p asked for the normal quantile of 0 and threw. `evals run
 * --baseline` crashed with a stack trace after running every case, and wrote no artifact.
 * The row must be a regression with a finite interval that leaves 0 out.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testBasedInterval } from '../src/compare/kappa-change.ts';
import { testRuns } from '../src/compare/row-tests.ts';
import type { RunPairing } from '../src/compare/run-comparison.ts';
import { AgreementTally, identityWeights } from '../src/evaluators/agreement.ts';
import type { EvaluationResult } from '../src/types/index.ts';

const ROWS = 12_000;

/** Row i is labelled pass when even; the judge is right except, on HEAD, on the first half. */
const rows = Array.from({ length: ROWS }, (_, i) => {
  const human = i % 2 === 0 ? 1 : 0;
  return { human, base: human, head: i < ROWS / 2 ? 1 - human : human };
});

function summary(side: 'base' | 'head') {
  const tally = new AgreementTally({ column: 'human', choices: null });
  for (const row of rows) {
    const passed = row[side] === 1;
    const evaluation: EvaluationResult = {
      evaluator: 'judge',
      score: passed ? 1 : 0,
      threshold: { gte: 0.5 },
      passed,
      metadata: null,
      error: null,
      durationMs: 0,
    };
    tally.add(row.human === 1 ? 'pass' : 'fail', evaluation);
  }
  return tally.summary();
}

describe('a κ row whose p-value underflows to 0', () => {
  it('testBasedInterval gives a finite interval below 0 at p = 0', () => {
    const interval = testBasedInterval(-1, 0, 0.05);
    assert.ok(Number.isFinite(interval.low) && Number.isFinite(interval.high), `${interval.low}`);
    assert.ok(interval.high < 0, `${interval.high}`);
    assert.ok(interval.se !== null && interval.se > 0);
  });

  it('is tested and labelled regressed, not thrown', () => {
    const pairing: RunPairing = {
      suite: 'qa',
      params: {},
      trials: 1,
      baseTrials: 1,
      minDetectableEffect: 0.1,
      passRate: {
        diffs: new Float64Array(ROWS),
        baseTotal: 0,
        headTotal: 0,
        passToFail: 0,
        failToPass: 0,
      },
      evaluators: [],
      agreement: [
        {
          evaluator: 'judge',
          base: summary('base'),
          head: summary('head'),
          verdicts: { weights: identityWeights(2), rows },
        },
      ],
      evaluatorsOnlyInBase: [],
      evaluatorsOnlyInHead: [],
      cases: { newlyFailing: [], fixed: [], added: [], removed: [], contentChanged: [], flaky: [] },
    };
    const tested = testRuns([pairing], {
      confidence: 0.95,
      resamples: 4999,
      seed: 1,
      minPaired: 10,
    });
    const row = tested.runs[0]?.agreement[0];
    assert.ok(row !== undefined);
    assert.equal(row.delta, -1);
    assert.equal(row.label, 'regressed');
    assert.equal(row.significant, true);
    assert.ok(row.ci !== null && Number.isFinite(row.ci.low) && row.ci.high < 0);
  });
});
