/**
 * A run's verdict from its gate (`gate:` in evals.yaml, runTestSuite's `gate`) and its summary:
 * one condition per rule, so every report can say exactly what failed. The engine and `evals
 * merge` both decide a run's verdict here.
 */
import type {
  GateCondition,
  GateSpec,
  RunPlan,
  RunSummary,
  Threshold,
  Verdict,
} from '../types/index.ts';
import {
  agreedWithoutVariance,
  kappaNotMeasurableText,
  kappaUndefinedReason,
} from '../evaluators/agreement.ts';
import { formatCount } from '../shared/format-count.ts';
import { withoutNoiseOrNull } from '../shared/float-noise.ts';
import { describeThreshold, meetsThreshold } from './threshold.ts';
import { meanWithErrors } from './mean-bounds.ts';

/**
 * A run's verdict from its gate, with one condition per rule so reports can say exactly what
 * failed. Without `minPassRate` the rule is `all cases pass` (nothing failed or errored); with
 * it, `minPassRate`. Evaluator rules are named `evaluators.<id>.mean` / `.passRate`; one with
 * nothing to measure (no scores, no thresholded evaluations) fails, because a gate the run
 * could not check must not pass silently. A run of zero cases passes the case rules, and the
 * condition's `actual` says `no cases ran`; its evaluator rules pass too when `emptyExcused`
 * (the run planned no cases and `allowEmpty` or `--shard` accepts that, see `evaluateRunGate`).
 */
export function evaluateGate(
  summary: RunSummary,
  gate: GateSpec,
  emptyExcused = false,
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
    const bound: Threshold = { gte: gate.minPassRate };
    const passed = meetsThreshold(summary.passRate, bound);
    conditions.push({
      name: 'minPassRate',
      expected: `≥ ${gate.minPassRate}`,
      // A pass rate of no cases is 1 by convention, which would read as if every case passed.
      actual: noCases
        ? 'no cases ran'
        : `${formatMeasured(summary.passRate, bound, passed)} (${formatCount(summary.passed)} of ${formatCount(summary.cases)} cases)`,
      passed,
    });
  }

  // Evaluator rules with nothing to measure because nothing was meant to run.
  const missing = (reason: string): string | null => (emptyExcused && noCases ? null : reason);
  for (const [id, rules] of Object.entries(gate.evaluators ?? {})) {
    const measured = summary.evaluators[id];
    // An automatic battle that recorded the first baseline of every case that ran judged none
    // yet, for want of a baseline, not by mistake: its rules pass, saying so (see nothingJudged).
    const recorded = recordedOnly(summary, measured);
    const unmeasured = (reason: string): string | null =>
      recorded !== undefined ? null : missing(reason);
    const excused = recorded ?? 'no cases ran';
    if (rules.mean != null) {
      const condition = measure(
        `evaluators.${id}.mean`,
        rules.mean,
        withoutNoiseOrNull(measured?.mean ?? null),
        unmeasured('no scores'),
        excused,
      );
      conditions.push(
        measured === undefined || measured.mean === null
          ? condition
          : meanWithErrors(condition, rules.mean, measured),
      );
    }
    if (rules.passRate != null) {
      conditions.push(
        measure(
          `evaluators.${id}.passRate`,
          rules.passRate,
          measured?.passRate ?? null,
          unmeasured('no evaluations with a threshold'),
          excused,
        ),
      );
    }
    // Agreement with people: a judge that cannot be trusted fails the run like a low score.
    const agreement = measured?.agreement;
    // An evaluator without `agreement:` is a mistake in the config, empty run or not.
    const noAgreement =
      agreement === undefined
        ? 'no agreement: on the evaluator'
        : missing('no labelled row judged');
    if (
      rules.agreement?.kappa != null &&
      agreement !== undefined &&
      agreedWithoutVariance(agreement)
    ) {
      conditions.push({
        name: `evaluators.${id}.agreement.kappa`,
        expected: describeThreshold(rules.agreement.kappa),
        actual: kappaNotMeasurableText(agreement),
        passed: false,
      });
    } else if (rules.agreement?.kappa != null) {
      conditions.push(
        measure(
          `evaluators.${id}.agreement.kappa`,
          rules.agreement.kappa,
          withoutNoiseOrNull(agreement?.kappa ?? null),
          // With rows judged, κ can still be undefined: say why (every verdict the same).
          agreement === undefined
            ? noAgreement
            : missing(kappaUndefinedReason(agreement) ?? 'no labelled row judged'),
        ),
      );
    }
    if (rules.agreement?.accuracy != null) {
      conditions.push(
        measure(
          `evaluators.${id}.agreement.accuracy`,
          rules.agreement.accuracy,
          agreement?.accuracy ?? null,
          noAgreement,
        ),
      );
    }
  }

  return { verdict: conditions.every((c) => c.passed) ? 'pass' : 'fail', conditions };
}

/**
 * One evaluator rule. `missing` words a value that is `null`; `missing` itself `null`: the rule
 * has nothing to measure and may (the run planned no cases and may, or the evaluator recorded
 * first baselines only), and passes, `excused` saying why. A mean or κ comes rounded to 15
 * significant digits (shared/float-noise.ts), as the summary stores it, so an artifact written
 * before that rounding (merged, resumed) is judged the same way; a rate of counts comes exact.
 */
function measure(
  name: string,
  threshold: Threshold,
  value: number | null,
  missing: string | null,
  excused = 'no cases ran',
): GateCondition {
  const expected = describeThreshold(threshold);
  if (value === null) {
    return missing === null
      ? { name, expected, actual: excused, passed: true }
      : { name, expected, actual: missing, passed: false };
  }
  const passed = meetsThreshold(value, threshold);
  return { name, expected, actual: formatMeasured(value, threshold, passed), passed };
}

/**
 * What an evaluator's rules say when it evaluated none of the cases that ran because it recorded
 * the first baseline of each (an automatic battle on its first run); `undefined` otherwise:
 * when it evaluated any case, errored on any, or skipped one it did not record.
 */
function recordedOnly(
  summary: RunSummary,
  measured: RunSummary['evaluators'][string] | undefined,
): string | undefined {
  const recorded = measured?.baselinesRecorded ?? 0;
  const ran = summary.cases - summary.errored;
  if (measured === undefined || measured.count > 0 || recorded === 0 || recorded < ran) {
    return undefined;
  }
  return baselinesRecordedText(recorded);
}

/** How a run that recorded first baselines and judged nothing yet says so. */
function baselinesRecordedText(recorded: number): string {
  return `baselines recorded for ${formatCount(recorded)} ${recorded === 1 ? 'case' : 'cases'}; nothing judged yet (the next run judges against them)`;
}

/**
 * A measured value for condition text: up to 4 decimals, more when 4 would make it read as the
 * opposite of its verdict (29 of 30 against `≥ 0.96667` is `0.966667`, not `0.9667`), the full
 * value at worst. The verdict always comes from the exact value.
 */
function formatMeasured(value: number, threshold: Threshold, passed: boolean): string {
  // Bounded: a double has at most 17 significant digits, so 17 decimals always suffice for
  // values in [0, 1]; String() is the exact value past that.
  for (let decimals = 4; decimals <= 17; decimals++) {
    const shown = Number(value.toFixed(decimals));
    if (meetsThreshold(shown, threshold) === passed) return String(shown);
  }
  return String(value);
}

/**
 * `evaluateGate` for a run that planned `planned` cases: one cut short (an interrupt, a partial
 * merge) gets a failing `complete` condition and never passes, whatever its finished cases
 * looked like; one that planned none gets a failing `cases` condition, unless the gate allows
 * it (`allowEmpty`) or the run is one shard of its cases (`shard`: a shard may get none of a
 * small suite; the merged run is judged whole). Then the evaluator rules, which have nothing to
 * measure, pass too, saying `no cases ran`. A run whose cases ran but were evaluated by none of
 * its evaluators, or whose every case errored under a `minPassRate`, gets a failing `judged`
 * condition (see `nothingJudged`), unless it is a shard (judged whole once merged). The engine
 * and `evals merge` both decide a run's verdict through here.
 */
export function evaluateRunGate(
  summary: RunSummary,
  gate: GateSpec,
  planned: number,
  shard = false,
  passDecides = false,
): { verdict: Verdict; conditions: GateCondition[] } {
  const emptyExcused = planned === 0 && (gate.allowEmpty === true || shard);
  const result = evaluateGate(summary, gate, emptyExcused);
  if (planned === 0 && !emptyExcused) {
    // A `--tag` typo or an empty testset: a gate that checked nothing must not pass.
    result.conditions.push(noCasesCondition());
    result.verdict = 'fail';
  }
  const unjudged = shard ? undefined : nothingJudged(summary, gate, passDecides);
  if (unjudged !== undefined) {
    result.conditions.push(unjudged);
    if (!unjudged.passed) result.verdict = 'fail';
  }
  if (summary.cases < planned) {
    result.conditions.push({
      name: 'complete',
      expected: `${planned} cases`,
      actual: `${summary.cases} finished (interrupted)`,
      passed: false,
    });
    result.verdict = 'fail';
  }
  return result;
}

/** The name of the condition a run that planned no cases fails (see `evaluateRunGate`). */
export const NO_CASES_CONDITION = 'cases';

/**
 * The failed condition of a run that planned no cases. `actual` says what happened and how to
 * accept it, in the words of where the suite was written: evals.yaml's by default (an empty
 * testset, or filters that select none of its rows); `runTestSuite` words it for its arguments.
 */
export function noCasesCondition(
  actual = 'no cases matched (allowEmpty: true on the suite accepts this)',
): GateCondition {
  return { name: NO_CASES_CONDITION, expected: 'at least 1 case', actual, passed: false };
}

/**
 * The gate of a run recounted from the `plan` its artifact records (`evals merge`, a recovered
 * journal), decided as the engine decided it: `planned` cases, `shard` when only part of them
 * are the run's to hold.
 */
export function recordedRunGate(
  summary: RunSummary,
  plan: RunPlan,
  planned: number,
  shard: boolean,
): { verdict: Verdict; conditions: GateCondition[] } {
  return evaluateRunGate(summary, plan.gate, planned, shard, plan.pass === 'function');
}

/** The name of the condition a run fails when none of its evaluators judged a case. */
export const JUDGED_CONDITION = 'judged';

/**
 * The `judged` condition of a run that checked nothing although it had cases, which fails (a run
 * that checked nothing must not pass, as a run of no cases does not):
 * - every case errored under a `minPassRate` (`0` would pass it; the default gate fails already);
 * - cases ran (some did not error) but every one of its evaluators evaluated none of them (each
 *   returned nothing, or its `when:` matched no row), so each passed by default, unless a `pass:`
 *   function decided them (`passDecides`) or the suite has no evaluators (its cases pass by not
 *   erroring, as configured). One evaluator that skipped all while another judged still only
 *   warns (report/summary-table.ts);
 * - cases ran but every evaluation of every evaluator errored (a judge whose server answered 500
 *   to each call), under a `minPassRate`: those cases failed, which the default gate fails
 *   already, but `minPassRate: 0` would pass a run whose judge never gave one verdict, as it would
 *   one whose every case errored. Not with a `pass:` function, which may decide without them.
 *
 * A case whose first baseline an automatic battle recorded (the SDK's, which gives it no
 * evaluation, as the Autoblocks SDK does) had nothing to be judged against yet: it is not counted
 * as one that ran unjudged. When every case that ran is such a case, no evaluation errored and
 * every evaluator recorded some baseline (a suite of battles alone, recording its baselines), the
 * condition passes and says so, so a first run passes and the next, with the baselines, judges.
 * The excuse is the recording evaluators' own: another evaluator that evaluated none of the cases
 * (it returned nothing for each) had no baseline to wait for, so the run checked nothing it was
 * asked to and fails as it would without the battle, naming both. Any other case unjudged, or an
 * evaluation that errored, is judged as above.
 */
function nothingJudged(
  summary: RunSummary,
  gate: GateSpec,
  passDecides: boolean,
): GateCondition | undefined {
  const ran = summary.cases - summary.errored;
  if (summary.cases > 0 && ran <= 0 && gate.minPassRate != null) {
    return {
      name: JUDGED_CONDITION,
      expected: 'at least 1 case evaluated',
      actual: `every one of the ${formatCount(summary.cases)} ${summary.cases === 1 ? 'case' : 'cases'} errored`,
      passed: false,
    };
  }
  const ids = Object.keys(summary.evaluators);
  if (ran <= 0 || ids.length === 0 || passDecides) return undefined;
  const count = (id: string): number => summary.evaluators[id]?.count ?? 0;
  const errors = (id: string): number => summary.evaluators[id]?.errors ?? 0;
  // An evaluation without an error is a verdict (or a score): something was checked.
  if (ids.some((id) => count(id) > errors(id))) return undefined;
  const errored = ids.filter((id) => count(id) > 0);
  // Errored evaluations failed their cases: the default gate says so already.
  if (errored.length > 0 && gate.minPassRate == null) return undefined;
  const recordedBy = (id: string): number => summary.evaluators[id]?.baselinesRecorded ?? 0;
  // An evaluator that neither evaluated nor recorded a case skipped them all: the baselines
  // another evaluator recorded do not excuse it, as it had no baseline to wait for.
  const skipped = ids.filter((id) => count(id) === 0 && recordedBy(id) === 0);
  const recorded = skipped.length > 0 ? 0 : Math.min(summary.baselinesRecorded ?? 0, ran);
  const expected = 'at least 1 case evaluated';
  if (recorded === ran && errored.length === 0) {
    return {
      name: JUDGED_CONDITION,
      expected,
      actual: baselinesRecordedText(recorded),
      passed: true,
    };
  }
  const recorders = ids.filter((id) => count(id) === 0 && recordedBy(id) > 0);
  const why = [
    ...(skipped.length > 0 ? [`${skipped.join(', ')} skipped every one`] : []),
    ...recorders.map(
      (id) => `${id} only recorded first baselines (${formatCount(recordedBy(id))})`,
    ),
    ...errored.map((id) => `every evaluation of ${id} errored`),
  ];
  const unjudged = ran - recorded;
  const cases = `${formatCount(unjudged)} ${unjudged === 1 ? 'case' : 'cases'}`;
  return {
    name: JUDGED_CONDITION,
    expected,
    actual:
      recorded > 0
        ? `none of the ${cases} that ran without recording a first baseline: ${why.join('; ')}`
        : `none of the ${cases} that ran: ${why.join('; ')}`,
    passed: false,
  };
}
