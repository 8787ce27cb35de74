import type {
  AgreementSpec,
  CaseResult,
  EvaluatorSummary,
  GateSpec,
  RunSummary,
  Threshold,
  Usage,
} from '../types/index.ts';
import { addUsage, hasUsage } from '../judge/usage.ts';
import { AgreementTally } from '../evaluators/agreement.ts';
import { ExactSum } from './exact-sum.ts';
import { withoutNoise } from '../shared/float-noise.ts';
import { hasBound, isUpperBoundOnly } from './threshold.ts';

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
 *
 * An evaluator with `agreement:` also gets its verdicts tallied against the human label in
 * the case's data (`AgreementTally`): accuracy and Cohen's κ over the labelled rows.
 *
 * An evaluator whose thresholds bound it from above only (`lte: 0.2`) is marked `lowerIsBetter`,
 * so comparisons and grid matrices read its scores the right way up (see `lowerIsBetter` below);
 * so is one whose evaluations have no bound when the gate bounds its mean from above only.
 *
 * Usage (model calls) is spending, so it is summed, never averaged: per evaluator over its
 * evaluations, per run over its evaluators and the target; absent wherever nothing was called.
 *
 * A fold over {@link SummaryAccumulator}, which the engine feeds case by case so a run never
 * has to keep its cases to be summarised (merge and resume fold theirs the same way).
 */
export function summarizeRun(
  cases: readonly CaseResult[],
  evaluatorIds: readonly string[],
  options: SummaryOptions = {},
): RunSummary {
  const accumulator = new SummaryAccumulator(evaluatorIds, options);
  for (const result of cases) accumulator.add(result);
  return accumulator.summary();
}

interface EvaluatorTotal {
  count: number;
  passed: number;
  failed: number;
  errors: number;
  /** Exact, so the mean is the same whatever order the cases finish in (see ExactSum). */
  sum: ExactSum;
  scored: number;
  usage: UsageTotal;
  /** Evaluations whose threshold bounds the score from above only (`lte`/`lt`). */
  upperBounded: number;
  /** Evaluations whose threshold has a lower bound (`gte`/`gt`, alone or in a band). */
  lowerBounded: number;
  /** Evaluations with a threshold: without any, the pass rate is `null`, errors or not. */
  thresholded: number;
  /** Cases that did not error whose first baseline it recorded instead of judging them. */
  recorded: number;
  /** Trials that errored beside scored ones, and how far they could move the sum of scores. */
  erroredTrials: { trials: number; down: number; up: number };
}

/** How a run is summarised: its trials, and the evaluators checked against human labels. */
export interface SummaryOptions {
  trials?: number;
  /** Evaluator id → its `agreement:`: the summary tallies its verdicts against the labels. */
  agreement?: Readonly<Record<string, AgreementSpec>>;
  /** The run's gate: a `mean` rule gives the direction of an evaluator without thresholds. */
  gate?: Pick<GateSpec, 'evaluators'>;
}

/**
 * An accumulator for the cases of a run as its recorded plan describes it (`evals merge`, a
 * recovered journal): its evaluators, trials and `agreement:` specs.
 */
export function planAccumulator(plan: {
  evaluators: readonly string[];
  trials: number;
  agreement?: Readonly<Record<string, AgreementSpec>>;
  gate?: Pick<GateSpec, 'evaluators'>;
}): SummaryAccumulator {
  return new SummaryAccumulator(plan.evaluators, {
    trials: plan.trials,
    ...(plan.agreement ? { agreement: plan.agreement } : {}),
    ...(plan.gate ? { gate: plan.gate } : {}),
  });
}

/** The `agreement:` of the evaluators that have one, by id; `undefined` when none has. */
export function agreementOf(
  evaluators: readonly { id: string; agreement?: AgreementSpec }[],
): Record<string, AgreementSpec> | undefined {
  const specs = evaluators.flatMap((e) =>
    e.agreement === undefined ? [] : [[e.id, e.agreement] as const],
  );
  return specs.length === 0 ? undefined : Object.fromEntries(specs);
}

/** Model calls summed in any order: counts add up, the cost exactly (null once one is unknown). */
class UsageTotal {
  #usage: Usage | undefined;
  #cost: ExactSum | null = new ExactSum();

  add(usage: Usage | undefined): void {
    if (!hasUsage(usage)) return;
    this.#usage = this.#usage === undefined ? usage : addUsage(this.#usage, usage);
    if (usage.cost === null) this.#cost = null;
    else this.#cost?.add(usage.cost);
  }

  /** The sum so far; `undefined` when nothing was called. */
  value(): Usage | undefined {
    if (this.#usage === undefined) return undefined;
    return { ...this.#usage, cost: this.#cost === null ? null : this.#cost.value() };
  }
}

/**
 * The running totals behind a {@link RunSummary}: O(evaluators) memory whatever the number of
 * cases. `add` each finished case (in any order: every total is a sum), read `summary()` at any
 * time; the result equals `summarizeRun` over the same cases.
 */
export class SummaryAccumulator {
  readonly #totals = new Map<string, EvaluatorTotal>();
  readonly #trials: number;
  /** Evaluator id → the gate's bound on its mean, when the gate has one. */
  readonly #gateMeans: ReadonlyMap<string, Threshold>;
  /** What the target's calls cost (a model target's). */
  readonly #targetUsage = new UsageTotal();
  #cases = 0;
  #passed = 0;
  #errored = 0;
  #flaky = 0;
  #baselinesRecorded = 0;
  /** Per evaluator with `agreement:`, its verdicts against the human labels. */
  readonly #agreement = new Map<string, AgreementTally>();

  constructor(evaluatorIds: readonly string[], options: SummaryOptions = {}) {
    this.#trials = options.trials ?? 1;
    this.#gateMeans = new Map(
      Object.entries(options.gate?.evaluators ?? {}).flatMap(([id, rules]) =>
        rules.mean != null ? [[id, rules.mean] as const] : [],
      ),
    );
    for (const [id, spec] of Object.entries(options.agreement ?? {})) {
      if (evaluatorIds.includes(id)) this.#agreement.set(id, new AgreementTally(spec));
    }
    for (const id of evaluatorIds) {
      this.#totals.set(id, {
        count: 0,
        passed: 0,
        failed: 0,
        errors: 0,
        sum: new ExactSum(),
        scored: 0,
        erroredTrials: { trials: 0, down: 0, up: 0 },
        usage: new UsageTotal(),
        upperBounded: 0,
        lowerBounded: 0,
        thresholded: 0,
        recorded: 0,
      });
    }
  }

  /** Cases added so far. */
  get cases(): number {
    return this.#cases;
  }

  add(result: CaseResult): void {
    this.#cases++;
    if (result.error !== null) this.#errored++;
    else if (result.passed) this.#passed++;
    if (result.flaky === true) this.#flaky++;
    if (result.error === null && result.recordedBaseline !== undefined) {
      if (result.recordedBaseline.length > 0) this.#baselinesRecorded++;
      for (const id of result.recordedBaseline) {
        const total = this.#totals.get(id);
        if (total !== undefined) total.recorded++;
      }
    }
    this.#targetUsage.add(result.usage);
    for (const evaluation of result.evaluations) {
      const total = this.#totals.get(evaluation.evaluator);
      if (total === undefined) continue;
      total.count++;
      if (evaluation.passed === true) total.passed++;
      else if (evaluation.passed === false) total.failed++;
      if (evaluation.error !== null) total.errors++;
      else if (evaluation.score !== null) {
        total.sum.add(evaluation.score);
        total.scored++;
        // Only a run of trials has combined evaluations; in another the metadata is the
        // evaluator's own, whose keys may be the aggregate's.
        if (this.#trials > 1) {
          addErroredTrials(total.erroredTrials, evaluation.score, evaluation.metadata);
        }
      }
      total.usage.add(evaluation.usage);
      const threshold = evaluation.threshold;
      // Judged against a threshold: one it has, or a pass status given without an error (an
      // artifact assembled by hand may leave its threshold out). An error alone is not.
      if (threshold !== null || (evaluation.error === null && evaluation.passed !== null)) {
        total.thresholded++;
      }
      if (threshold !== null && hasBound(threshold)) {
        if (isUpperBoundOnly(threshold)) total.upperBounded++;
        else total.lowerBounded++;
      }
    }
    for (const [id, tally] of this.#agreement) {
      const label = (result.data as Record<string, unknown> | null)?.[tally.column];
      tally.add(
        label,
        result.evaluations.find((evaluation) => evaluation.evaluator === id),
      );
    }
  }

  /** The summary of the cases added so far; a fresh object each call. */
  summary(): RunSummary {
    const evaluators: Record<string, EvaluatorSummary> = {};
    const runUsage = new UsageTotal();
    runUsage.add(this.#targetUsage.value());
    for (const [id, total] of this.#totals) {
      const judged = total.passed + total.failed;
      const usage = total.usage.value();
      const agreement = this.#agreement.get(id)?.summary();
      evaluators[id] = {
        count: total.count,
        // Rounded (shared/float-noise.ts): three scores of 0.7 average to 0.6999999999999998,
        // which a gate `mean: { gte: 0.7 }` would fail.
        mean: total.scored > 0 ? withoutNoise(total.sum.value() / total.scored) : null,
        passed: total.passed,
        failed: total.failed,
        errors: total.errors,
        // Only with errors: what the gate needs to bound the mean over every evaluation.
        ...(total.errors > 0 || total.erroredTrials.trials > 0 ? { scored: total.scored } : {}),
        ...(total.erroredTrials.trials > 0 ? { erroredTrials: roundedShifts(total) } : {}),
        ...(total.recorded > 0 ? { baselinesRecorded: total.recorded } : {}),
        // An evaluator without a threshold passes or fails nothing: its errors are `failed`
        // (the case failed), but a pass rate of 0% would read as if every check had failed.
        passRate: judged > 0 && total.thresholded > 0 ? total.passed / judged : null,
        ...(lowerIsBetter(total, this.#gateMeans.get(id)) ? { lowerIsBetter: true as const } : {}),
        ...(usage !== undefined ? { usage } : {}),
        ...(agreement !== undefined ? { agreement } : {}),
      };
      runUsage.add(usage);
    }
    const usage = runUsage.value();
    const cases = this.#cases;
    return {
      cases,
      passed: this.#passed,
      failed: cases - this.#passed - this.#errored,
      errored: this.#errored,
      passRate: cases > 0 ? this.#passed / cases : 1,
      ...(this.#trials > 1 ? { flaky: this.#flaky } : {}),
      ...(this.#baselinesRecorded > 0 ? { baselinesRecorded: this.#baselinesRecorded } : {}),
      evaluators,
      ...(usage !== undefined ? { usage } : {}),
    };
  }
}

/**
 * An evaluator's direction, from the thresholds of its evaluations: lower is better when at least
 * one evaluation has an upper-bound-only threshold (`lte`/`lt`) and none has a lower bound. When
 * they disagree (a templated threshold, a module returning its own), the evaluator stays
 * higher-is-better, the direction every evaluator had before: a single `gte` among many `lte`
 * never turns a comparison around on its own. Evaluations without a threshold, or with one that
 * has no bound, say nothing either way. Counts only, so the answer is the same in any order.
 *
 * When no evaluation has a bound, the gate's rule on the evaluator's mean is the only word on its
 * direction (`mean: { lte: 0.1 }` on a hallucination rate scored without a threshold): read the
 * usual way, its rise would be `improved` and its fall a regression that `regressions: block`
 * blocks.
 */
function lowerIsBetter(total: EvaluatorTotal, gateMean: Threshold | undefined): boolean {
  if (total.upperBounded > 0 || total.lowerBounded > 0) {
    return total.upperBounded > 0 && total.lowerBounded === 0;
  }
  return gateMean !== undefined && hasBound(gateMean) && isUpperBoundOnly(gateMean);
}

/**
 * Adds a combined evaluation over trials some of which errored beside its `k` scored ones
 * (`metadata.erroredTrials`, run/trials.ts): its score is the mean of those `k`, so had the `e`
 * errored ones scored 0 it would be `score * k / (k + e)`, had they scored 1 `(score * k + e) /
 * (k + e)`. The shifts from its score are summed, for the gate to bound the mean.
 */
function addErroredTrials(
  into: EvaluatorTotal['erroredTrials'],
  score: number,
  metadata: Record<string, unknown> | null,
): void {
  const errored = metadata?.erroredTrials;
  const scored = metadata?.scored;
  if (typeof errored !== 'number' || typeof scored !== 'number' || errored <= 0 || scored <= 0) {
    return;
  }
  const ran = scored + errored;
  into.trials += errored;
  into.down += (score * scored) / ran - score;
  into.up += (score * scored + errored) / ran - score;
}

/** The errored trials' shifts as the summary records them, to 15 digits as every mean is. */
function roundedShifts(total: EvaluatorTotal): { trials: number; down: number; up: number } {
  const { trials, down, up } = total.erroredTrials;
  return { trials, down: withoutNoise(down), up: withoutNoise(up) };
}
