import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { regressionCondition, significantRegressions } from '../src/compare/gate.ts';
import type { EvaluatorChange, RunComparison } from '../src/types/comparison.ts';

function row(evaluator: string, pValue: number, label: EvaluatorChange['label']): EvaluatorChange {
  const delta = label === 'regressed' ? -0.1 : label === 'improved' ? 0.1 : 0;
  return {
    evaluator,
    paired: 50,
    baseMean: 0.8,
    headMean: 0.8 + delta,
    delta,
    ci: { low: delta - 0.05, high: delta + 0.05 },
    pValue,
    label,
  };
}

function run(
  evaluators: EvaluatorChange[],
  passRate: Partial<RunComparison['passRate']> = {},
): RunComparison {
  return {
    suite: 's',
    params: {},
    passRate: {
      paired: 50,
      baseRate: 0.9,
      headRate: 0.9,
      delta: 0,
      passToFail: 0,
      failToPass: 0,
      pValue: 1,
      label: 'unchanged',
      ...passRate,
    },
    evaluators,
    evaluatorsOnlyInBase: [],
    evaluatorsOnlyInHead: [],
    cases: { newlyFailing: [], fixed: [], added: [], removed: [], contentChanged: [], flaky: [] },
  };
}

describe('significantRegressions (Holm across the rows of a run)', () => {
  const quiet = Array.from({ length: 9 }, (_, i) => row(`e${i}`, 0.6, 'unchanged'));

  it('blocks a clear regression', () => {
    const found = significantRegressions(run([row('exact', 0.0001, 'regressed'), ...quiet]));
    assert.deepEqual(
      found.map((f) => f.row),
      ['exact'],
    );
  });

  it('does not block a borderline one among many rows: p = 0.01 with 11 rows tested', () => {
    // 0.01 > 0.05 / 11: with this many rows, one p = 0.01 is what noise produces now and then.
    assert.deepEqual(significantRegressions(run([row('exact', 0.01, 'regressed'), ...quiet])), []);
  });

  it('blocks the same p = 0.01 when it is the only row tested', () => {
    assert.equal(
      significantRegressions(run([row('exact', 0.01, 'regressed')], { label: 'too few cases' }))
        .length,
      1,
    );
  });

  it('never blocks an improvement, an unchanged row, or too few cases', () => {
    const rows = [
      row('a', 0.0001, 'improved'),
      row('b', 0.2, 'unchanged'),
      row('c', 0.0001, 'too few cases'),
    ];
    assert.deepEqual(significantRegressions(run(rows)), []);
  });

  it('counts the pass-rate row, and the gate condition names what regressed', () => {
    const r = run([row('exact', 0.5, 'unchanged')], {
      label: 'regressed',
      pValue: 0.001,
      baseRate: 0.9,
      headRate: 0.7,
    });
    const condition = regressionCondition(r);
    assert.equal(condition.passed, false);
    assert.match(condition.actual, /pass rate 90\.0% → 70\.0% \(McNemar p = 0\.0010\)/);
    assert.deepEqual(regressionCondition(run(quiet)), {
      name: 'regressions',
      expected: 'no significant regression against the baseline',
      actual: 'none',
      passed: true,
    });
  });
});
