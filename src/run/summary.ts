import type {
  CaseResult,
  EvaluatorSummary,
  GateCondition,
  GateSpec,
  RunSummary,
  Threshold,
  Verdict,
} from '../types.ts';
import { describeThreshold, meetsThreshold } from './threshold.ts';

/**
 * Counts of one run. Numbers are exact (reports round them).
 *
 * Per case: `errored` = the function failed; `failed` = ran but did not pass. Per evaluator:
 * `failed` counts every evaluation with `passed: false`, errored ones included, so an erroring
 * evaluator drags its pass rate down instead of vanishing from it; `errors` says how many of
 * those were errors. `mean` averages evaluations without an error only, so an out-of-range
 * score kept for the user (1.4) never skews it. Evaluations of ids not in `evaluatorIds` (the
 * synthetic `pass` evaluation of a failing pass condition) are not summarised.
 *
 * With `trials` > 1 each case carries one aggregated evaluation per evaluator (its trial mean),
 * so the means here are means of per-case means: every case weighs the same, and a case's
 * trial-to-trial noise is averaged out before it reaches the run. `flaky` (cases that passed
 * some trials and failed others) is then counted; it is absent for single-trial runs, whose
 * summary stays as it always was.
 */
export function summarizeRun(
  cases: CaseResult[],
  evaluatorIds: string[],
  options: { trials?: number } = {},
): RunSummary {
  const totals = new Map<string, { summary: EvaluatorSummary; sum: number; scored: number }>();
  for (const id of evaluatorIds) {
    totals.set(id, {
      summary: { count: 0, mean: null, passed: 0, failed: 0, errors: 0, passRate: null },
      sum: 0,
      scored: 0,
    });
  }

  let passed = 0;
  let errored = 0;
  let flaky = 0;
  for (const result of cases) {
    if (result.error !== null) errored++;
    else if (result.passed) passed++;
    if (result.flaky === true) flaky++;
    for (const evaluation of result.evaluations) {
      const total = totals.get(evaluation.evaluator);
      if (total === undefined) continue;
      total.summary.count++;
      if (evaluation.passed === true) total.summary.passed++;
      else if (evaluation.passed === false) total.summary.failed++;
      if (evaluation.error !== null) total.summary.errors++;
      else if (evaluation.score !== null) {
        total.sum += evaluation.score;
        total.scored++;
      }
    }
  }

  const evaluators: Record<string, EvaluatorSummary> = {};
  for (const [id, total] of totals) {
    const { summary } = total;
    summary.mean = total.scored > 0 ? total.sum / total.scored : null;
    const judged = summary.passed + summary.failed;
    summary.passRate = judged > 0 ? summary.passed / judged : null;
    evaluators[id] = summary;
  }

  return {
    cases: cases.length,
    passed,
    failed: cases.length - passed - errored,
    errored,
    passRate: cases.length > 0 ? passed / cases.length : 1,
    ...((options.trials ?? 1) > 1 ? { flaky } : {}),
    evaluators,
  };
}

/**
 * A run's verdict from its gate, with one condition per rule so reports can say exactly what
 * failed. Without `minPassRate` the rule is `all cases pass` (nothing failed or errored); with
 * it, `minPassRate`. Evaluator rules are named `evaluators.<id>.mean` / `.passRate`; one with
 * nothing to measure (no scores, no thresholded evaluations) fails, because a gate the run
 * could not check must not pass silently. A run of zero cases passes the case rules, and the
 * condition's `actual` says `no cases ran`.
 */
export function evaluateGate(
  summary: RunSummary,
  gate: GateSpec,
): { verdict: Verdict; conditions: GateCondition[] } {
  const conditions: GateCondition[] = [];
  const noCases = summary.cases === 0;

  if (gate.minPassRate == null) {
    conditions.push({
      name: 'all cases pass',
      expected: '0 failed, 0 errored',
      actual: noCases ? 'no cases ran' : `${summary.failed} failed, ${summary.errored} errored`,
      passed: summary.failed + summary.errored === 0,
    });
  } else {
    conditions.push({
      name: 'minPassRate',
      expected: `≥ ${gate.minPassRate}`,
      actual: noCases
        ? `${formatNumber(summary.passRate)} (no cases ran)`
        : `${formatNumber(summary.passRate)} (${summary.passed} of ${summary.cases} cases)`,
      passed: summary.passRate >= gate.minPassRate,
    });
  }

  for (const [id, rules] of Object.entries(gate.evaluators ?? {})) {
    const measured = summary.evaluators[id];
    if (rules.mean != null) {
      conditions.push(
        measure(`evaluators.${id}.mean`, rules.mean, measured?.mean ?? null, 'no scores'),
      );
    }
    if (rules.passRate != null) {
      conditions.push(
        measure(
          `evaluators.${id}.passRate`,
          rules.passRate,
          measured?.passRate ?? null,
          'no evaluations with a threshold',
        ),
      );
    }
  }

  return { verdict: conditions.every((c) => c.passed) ? 'pass' : 'fail', conditions };
}

function measure(
  name: string,
  threshold: Threshold,
  value: number | null,
  missing: string,
): GateCondition {
  return {
    name,
    expected: describeThreshold(threshold),
    actual: value === null ? missing : formatNumber(value),
    passed: value !== null && meetsThreshold(value, threshold),
  };
}

/** Up to 4 decimals for condition text; comparisons always use the exact value. */
function formatNumber(value: number): string {
  return String(Number(value.toFixed(4)));
}
