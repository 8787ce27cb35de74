/**
 * Folding the trials of one case (`trials: N`, N > 1) into its `CaseResult`. Pure: the engine
 * hands in the case and its finished trials, in trial order.
 */
import { addUsage, hasUsage } from '../judge/usage.ts';
import { withoutNoise } from '../shared/float-noise.ts';
import type {
  CaseResult,
  EvaluationResult,
  PreparedCase,
  TrialResult,
  Usage,
} from '../types/index.ts';

/**
 * The result of a case that ran several trials:
 *
 * - `trials`: every trial, in order; `trialPassRate`: passed trials / N (an errored trial did
 *   not pass); `flaky`: some but not all trials passed.
 * - `passed`: more than half of the trials passed (so 2 of 4 is a fail).
 * - `evaluations`: one entry per evaluator, in the order the trials list them (see
 *   `aggregateEvaluations`).
 * - `output` and `error` come from the first trial whose verdict is the case's: the first passing
 *   trial of a passed case, the first failing one of a failed case. Taking them from trial 1
 *   regardless would let a passed case carry an error, and every reader (summary counts, JUnit,
 *   annotations, progress) treats `error !== null` as "errored, not passed"; it would also show a
 *   passing output as the example of why a case failed.
 * - `durationMs`: the mean of the trials' function times; `usage`: the sum of what the target
 *   spent in each trial (a model target's calls); `warnings` and `sent`: those of the trial shown.
 */
export function aggregateTrials(prepared: PreparedCase, trials: TrialResult[]): CaseResult {
  let passedTrials = 0;
  let durationSum = 0;
  for (const trial of trials) {
    if (trial.passed) passedTrials++;
    durationSum += trial.durationMs;
  }
  const count = trials.length;
  const passed = passedTrials * 2 > count;
  const shownIndex = Math.max(
    0,
    trials.findIndex((trial) => trial.passed === passed),
  );
  const shown = trials[shownIndex];
  let usage: Usage | undefined;
  for (const trial of trials) {
    if (hasUsage(trial.usage))
      usage = usage === undefined ? trial.usage : addUsage(usage, trial.usage);
  }
  return {
    id: prepared.id,
    contentId: prepared.contentId,
    ...caseInputId(prepared),
    source: prepared.source,
    data: prepared.data,
    ...caseTags(prepared),
    output: shown?.output ?? null,
    error: shown?.error ?? null,
    durationMs: count > 0 ? durationSum / count : 0,
    passed,
    evaluations: aggregateEvaluations(trials, shownIndex),
    ...recordedBaselineOf(trials),
    ...(usage !== undefined ? { usage: { ...usage } } : {}),
    // What the target noted about the output shown, not about another trial's.
    ...(shown?.warnings !== undefined ? { warnings: shown.warnings } : {}),
    ...(shown?.sent !== undefined ? { sent: shown.sent } : {}),
    trials,
    trialPassRate: count > 0 ? passedTrials / count : 0,
    flaky: passedTrials > 0 && passedTrials < count,
  };
}

/**
 * One entry per evaluator over the trials that ran it (a trial whose function errored ran
 * none), so per-evaluator summaries and comparisons see one score per case:
 *
 * - `score`: the mean of the trials' scores that have no error, rounded to 15 significant digits
 *   as every mean evalgate derives is (shared/float-noise.ts: three trials of 0.7 average to 0.7,
 *   not 0.6999999999999998); `null` when none has one.
 * - `error`: set only when every trial that ran the evaluator errored (the first trial's message;
 *   the trials keep all of them). An evaluator that errored in some trials is judged on the rest.
 * - `threshold`: the first the trials carry; `passed`: by the case's own rule, whether it passed
 *   in more than half of the trials that judged it without an error (`null` when no trial gave
 *   it a pass status, `false` when errored). Not whether the mean meets the threshold: scores
 *   1, 1, 0 against `gte: 1` pass 2 of 3 trials, and a case passed by them must not list the
 *   evaluator that made it pass as failed. So under `pass: all`, a passed case never has a failed
 *   evaluation. (A failed case may still list every evaluator as passed: each can pass most
 *   trials while the trials each fail on a different one; `trials` says which.)
 * - `metadata`: `{ trials: N, scored: k, passedTrials: p }`, `p` the trials in which it passed,
 *   and `erroredTrials: e` when `e` trials errored beside the scored ones (its score is the mean
 *   of the `k` only, which the gate's mean rule bounds as it bounds errored evaluations);
 *   for an evaluation that did not pass (and did not error), also the metadata of one trial in
 *   which it failed, with `fromTrial` (1-based): see `failedTrialMetadata`.
 *   `durationMs`: the mean over the trials that ran it.
 * - `usage`: the SUM over the trials (absent when none called a model): it is what the case
 *   spent, and a mean would under-report the bill N-fold.
 *
 * The synthetic `pass` evaluation of a failing pass condition is folded the same way, so a case
 * whose pass condition threw in every trial still says why.
 */
function aggregateEvaluations(trials: TrialResult[], shownIndex: number): EvaluationResult[] {
  const byEvaluator = new Map<string, TrialEvaluation[]>();
  trials.forEach((trial, index) => {
    for (const evaluation of trial.evaluations) {
      const entry = { index, evaluation };
      const list = byEvaluator.get(evaluation.evaluator);
      if (list === undefined) byEvaluator.set(evaluation.evaluator, [entry]);
      else list.push(entry);
    }
  });
  const aggregated: EvaluationResult[] = [];
  for (const [evaluator, entries] of byEvaluator) {
    const evaluations = entries.map((entry) => entry.evaluation);
    let sum = 0;
    let scored = 0;
    let durationSum = 0;
    let firstError: string | null = null;
    let threshold: EvaluationResult['threshold'] = null;
    let usage: Usage | undefined;
    let judged = 0;
    let passedTrials = 0;
    let erroredTrials = 0;
    for (const evaluation of evaluations) {
      // Like its score, its pass status is judged on the trials where it did not error.
      if (evaluation.error === null && evaluation.passed !== null) judged++;
      if (evaluation.error === null && evaluation.passed === true) passedTrials++;
      durationSum += evaluation.durationMs;
      if (hasUsage(evaluation.usage)) {
        usage = usage === undefined ? evaluation.usage : addUsage(usage, evaluation.usage);
      }
      threshold ??= evaluation.threshold;
      if (evaluation.error !== null) {
        firstError ??= evaluation.error;
        erroredTrials++;
      } else if (evaluation.score !== null) {
        sum += evaluation.score;
        scored++;
      }
    }
    const score = scored > 0 ? withoutNoise(sum / scored) : null;
    const error = scored === 0 ? firstError : null;
    const passed = error !== null ? false : judged === 0 ? null : passedTrials * 2 > judged;
    // Trials that errored beside a score: the gate bounds the mean over them (mean-bounds.ts).
    const counts = {
      trials: trials.length,
      scored,
      passedTrials,
      ...(error === null && erroredTrials > 0 ? { erroredTrials } : {}),
    };
    aggregated.push({
      evaluator,
      score,
      threshold,
      passed,
      metadata:
        passed === false && error === null
          ? failedTrialMetadata(counts, entries, shownIndex)
          : counts,
      error,
      durationMs: durationSum / evaluations.length,
      ...(usage !== undefined ? { usage: { ...usage } } : {}),
    });
  }
  return aggregated;
}

/**
 * The evaluators that recorded the case's first baseline in any of its trials, in the order the
 * trials name them (each trial of a case without a baseline records, the first value kept).
 */
function recordedBaselineOf(trials: readonly TrialResult[]): { recordedBaseline?: string[] } {
  const ids = new Set(trials.flatMap((trial) => trial.recordedBaseline ?? []));
  return ids.size > 0 ? { recordedBaseline: [...ids] } : {};
}

/** One trial's evaluation by one evaluator, with the trial's index (0-based) in the case. */
interface TrialEvaluation {
  index: number;
  evaluation: EvaluationResult;
}

/**
 * The metadata of a failed evaluation over trials: what one trial's evaluation recorded
 * (`expected`, `actual`, `reason`, …), then the counts and `fromTrial`, that trial (1-based, as
 * `args.trial` and `evals show` number trials), so every view that explains a failure from
 * `metadata` (terminal summary, `evals show`, JUnit, the HTML report's reason column and diff)
 * explains this one as it would with one trial.
 *
 * The trial is one in which the evaluation was judged without an error and failed: the trial
 * whose output the case shows (the first failing trial of a failed case) when it failed there,
 * so the reason, the output and the diff of the same trial are shown together; else the first
 * such trial. Not the lowest-scoring one: "lowest" is the worst only for `gte`/`gt` thresholds,
 * and the first is what a reader finds first in `trials`.
 *
 * The counts and `fromTrial` win over keys of the same name the evaluator recorded: every reader
 * of an aggregate relies on them. The evaluator's own values stay in `trials[fromTrial - 1]`.
 */
function failedTrialMetadata(
  counts: { trials: number; scored: number; passedTrials: number; erroredTrials?: number },
  entries: readonly TrialEvaluation[],
  shownIndex: number,
): Record<string, unknown> {
  const failed = entries.filter(
    ({ evaluation }) => evaluation.error === null && evaluation.passed === false,
  );
  const chosen = failed.find((entry) => entry.index === shownIndex) ?? failed[0];
  if (chosen === undefined) return counts;
  // The counts' `erroredTrials` is read by the summary (run/summary.ts): absent from them, the
  // evaluator's own key of that name stays in `trials[fromTrial - 1]` only.
  const { erroredTrials: _own, ...own } = chosen.evaluation.metadata ?? {};
  return { ...own, ...counts, fromTrial: chosen.index + 1 };
}

/** `{ inputId }` for a case of a recorded-output suite, else nothing (see `PreparedCase`). */
export function caseInputId(testCase: Pick<PreparedCase, 'inputId'>): { inputId?: string } {
  return testCase.inputId !== undefined ? { inputId: testCase.inputId } : {};
}

/** `{ tags }` for a row with tags, else nothing: the artifact omits an empty list. */
export function caseTags(testCase: Pick<PreparedCase, 'meta'>): { tags?: string[] } {
  const tags = testCase.meta.tags;
  return tags !== undefined && tags.length > 0 ? { tags: [...tags] } : {};
}
