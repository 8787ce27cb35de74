/**
 * Comparison rows as the family left them, for the tests of what the gate and the reports make
 * of a row: an evaluator row with its own p, Holm p and q, and a run of such rows.
 */
import type { EvaluatorChange, RunComparison } from '../../src/types/comparison.ts';

/** An evaluator row: significant when it changed and its Holm p is below 0.05. */
export function evaluatorRow(
  evaluator: string,
  label: EvaluatorChange['label'],
  tests: { p: number; holm?: number; q?: number },
): EvaluatorChange {
  const delta = label === 'regressed' ? -0.1 : label === 'improved' ? 0.1 : 0;
  const holm = tests.holm ?? tests.p;
  return {
    evaluator,
    paired: 50,
    baseMean: 0.8,
    headMean: 0.8 + delta,
    delta,
    ci: { low: delta - 0.05, high: delta + 0.05 },
    sd: 0.2,
    pValue: tests.p,
    adjustedP: holm,
    qValue: tests.q ?? holm,
    label,
    significant: label !== 'unchanged' && label !== 'too few cases' && holm < 0.05,
    power: null,
  };
}

/** One grid point of suite `s` with `evaluators`, its pass rate unchanged unless `passRate` says. */
export function runComparison(
  evaluators: EvaluatorChange[],
  passRate: Partial<RunComparison['passRate']> = {},
): RunComparison {
  return {
    suite: 's',
    params: {},
    trials: 1,
    minDetectableEffect: 0.1,
    passRate: {
      paired: 50,
      baseRate: 0.9,
      headRate: 0.9,
      delta: 0,
      ci: { low: 0, high: 0 },
      sd: 0,
      passToFail: 0,
      failToPass: 0,
      pValue: 1,
      adjustedP: 1,
      qValue: 1,
      label: 'unchanged',
      significant: false,
      power: null,
      ...passRate,
    },
    evaluators,
    agreement: [],
    evaluatorsOnlyInBase: [],
    evaluatorsOnlyInHead: [],
    cases: { newlyFailing: [], fixed: [], added: [], removed: [], contentChanged: [], flaky: [] },
  };
}
