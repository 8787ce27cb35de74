import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { regressionCondition, significantRegressions } from '../src/compare/gate.ts';
import { testRuns } from '../src/compare/row-tests.ts';
import { orderRuns } from '../src/report/shown-label.ts';
import type { RunPairing } from '../src/compare/run-comparison.ts';
import type { EvaluatorChange } from '../src/types/comparison.ts';
import { evaluatorRow, runComparison } from './helpers/comparison-rows.ts';

const SETTINGS = { confidence: 0.95, resamples: 4999, seed: 1, minPaired: 10 };

function row(
  evaluator: string,
  pValue: number,
  label: EvaluatorChange['label'],
  adjustedP = pValue,
  qValue = adjustedP,
): EvaluatorChange {
  return evaluatorRow(evaluator, label, { p: pValue, holm: adjustedP, q: qValue });
}

const run = runComparison;

/** A run's rows before testing: `shift` moves every case of `quality` by that much. */
function pairing(seed: number, cases: number, shift: number): RunPairing {
  let state = seed;
  const noise = (): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648 - 0.5;
  };
  const diffs = Float64Array.from({ length: cases }, () => shift + 0.4 * noise());
  return {
    suite: 'qa',
    params: { point: seed },
    trials: 1,
    baseTrials: 1,
    minDetectableEffect: 0.1,
    passRate: {
      diffs: new Float64Array(cases),
      baseTotal: 0,
      headTotal: 0,
      passToFail: 0,
      failToPass: 0,
    },
    evaluators: [{ evaluator: 'quality', diffs, baseTotal: cases / 2, headTotal: cases / 2 }],
    agreement: [],
    evaluatorsOnlyInBase: [],
    evaluatorsOnlyInHead: [],
    cases: { newlyFailing: [], fixed: [], added: [], removed: [], contentChanged: [], flaky: [] },
  };
}

describe('significantRegressions (what survives Holm over the whole comparison)', () => {
  const quiet = Array.from({ length: 9 }, (_, i) => row(`e${i}`, 0.6, 'unchanged'));

  it('blocks a regression still significant after the correction', () => {
    const found = significantRegressions(
      run([row('exact', 0.0001, 'regressed', 0.0011), ...quiet]),
    );
    assert.deepEqual(
      found.map((f) => [f.row, f.adjustedP]),
      [['exact', 0.0011]],
    );
  });

  it('does not block a regression the correction removed (p = 0.01, Holm p = 0.11)', () => {
    assert.deepEqual(significantRegressions(run([row('exact', 0.01, 'regressed', 0.11)])), []);
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
      significant: true,
      pValue: 0.001,
      adjustedP: 0.004,
      baseRate: 0.9,
      headRate: 0.7,
      delta: -0.2,
    });
    const condition = regressionCondition(r);
    assert.equal(condition.passed, false);
    assert.match(
      condition.actual,
      /pass rate 90\.0% → 70\.0% \(-20\.0 pp, p = 0\.0010, Holm p = 0\.0040\)/,
    );
    assert.deepEqual(regressionCondition(run(quiet)), {
      name: 'regressions',
      expected:
        'no significant regression against the baseline (Holm-corrected over the comparison)',
      actual: 'none',
      passed: true,
    });
  });
});

describe('the regressions condition writes numbers as the reports do', () => {
  it('never rounds a rate below 100% up to 100.0%, nor a mean below 1 up to 1.000', () => {
    const r = run(
      [
        {
          ...row('exact', 0.001, 'regressed', 0.004),
          baseMean: 0.9995,
          headMean: 0.9,
          delta: -0.0995,
        },
      ],
      {
        label: 'regressed',
        significant: true,
        pValue: 0.001,
        adjustedP: 0.004,
        baseRate: 0.9995,
        headRate: 0.9,
        delta: -0.0995,
      },
    );
    const { actual } = regressionCondition(r);
    assert.match(actual, /pass rate 99\.9% → 90\.0% \(-10\.0 pp/);
    assert.match(actual, /exact 0\.9995 → 0\.900 \(-0\.100,/);
  });
});

describe('testRuns: one family across every run of a comparison', () => {
  it('corrects over the rows of all runs, not within each run', () => {
    const one = testRuns([pairing(3, 40, -0.06)], SETTINGS);
    const many = testRuns(
      [pairing(3, 40, -0.06), pairing(4, 40, 0), pairing(5, 40, 0), pairing(6, 40, 0)],
      SETTINGS,
    );
    const alone = one.runs[0]?.evaluators[0];
    const among = many.runs[0]?.evaluators[0];
    assert.ok(alone && among);
    // The same row, the same raw p: only the family grew (1 row alone, 4 rows among the runs;
    // the pass-rate rows, where no case changed, are not in it).
    assert.equal(alone.pValue, among.pValue);
    assert.equal(one.family.rows, 1);
    assert.equal(many.family.rows, 4);
    assert.equal(alone.adjustedP, alone.pValue);
    assert.ok((among.adjustedP ?? 0) >= Math.min(1, 4 * (among.pValue ?? 0)) - 1e-12);
    assert.equal(alone.label, 'regressed');
    assert.equal(alone.significant, true);
    assert.equal(among.significant, (among.adjustedP ?? 1) < 0.05);
    assert.equal(many.family.regressions, among.significant ? 1 : 0);
  });

  it('reports a q-value beside each raw p and Holm p, never below the raw p', () => {
    const tested = testRuns([pairing(7, 60, -0.1), pairing(8, 60, 0.02)], SETTINGS);
    for (const r of tested.runs.flatMap((x) => x.evaluators)) {
      assert.ok(r.pValue !== null && r.qValue !== null && r.adjustedP !== null);
      assert.ok(r.qValue >= r.pValue && r.qValue <= r.adjustedP, JSON.stringify(r));
    }
  });

  it('gives every unchanged row its power and marks a small run underpowered', () => {
    const tested = testRuns([pairing(9, 12, 0), pairing(10, 400, 0)], SETTINGS);
    const [small, large] = tested.runs.map((r) => r.evaluators[0]);
    assert.ok(small?.power && large?.power);
    assert.equal(small.label, 'unchanged');
    assert.equal(small.power.underpowered, true);
    assert.ok((small.power.casesNeeded ?? 0) > 12);
    assert.equal(large.power.underpowered, false);
    assert.ok(large.power.detectable < 0.1 && large.power.detectable < small.power.detectable);
  });
});

describe('orderRuns (the reports list grid points by what the gate counts)', () => {
  it('puts a run with a counted regression before one whose regression is only possible', () => {
    const possible = run([row('possible', 0.01, 'regressed', 0.2, 0.03)]);
    const counted = run([row('counted', 0.0001, 'regressed', 0.001)]);
    const quiet = run([row('quiet', 0.6, 'unchanged')]);
    // Its own p alone below 0.05, q above: shown unchanged, so listed as the quiet run is.
    const noise = run([row('noise', 0.01, 'regressed', 0.2, 0.2)]);
    const ordered = orderRuns([noise, quiet, possible, counted]);
    assert.deepEqual(
      ordered.map((r) => r.evaluators[0]?.evaluator),
      ['counted', 'possible', 'noise', 'quiet'],
    );
  });
});
