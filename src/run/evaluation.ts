import { impossibleRange } from '../config/threshold.ts';
import { EvaluationError, describeValue } from '../shared/errors.ts';
import { hasUsage } from '../judge/usage.ts';
import type { EngineEvaluator, EvaluationResult, Threshold, Usage } from '../types/index.ts';
import { evaluationPassed } from './threshold.ts';

/** The parts of an evaluator its results record. */
export type EvaluatorIdentity = Pick<EngineEvaluator, 'id' | 'threshold'>;

/**
 * Turns what an evaluator returned into the recorded `EvaluationResult`, checking it on the
 * way: user evaluators are plain JavaScript at run time, so the `Evaluation` type promises
 * nothing. A bad return is that evaluation's error (`passed: false`), never an exception.
 */
export function toEvaluationResult(
  evaluator: EvaluatorIdentity,
  raw: unknown,
  durationMs: number,
): EvaluationResult {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return erroredEvaluation(
      evaluator,
      `expected an evaluation object { score }, got ${describeValue(raw)}`,
      durationMs,
    );
  }
  const {
    score,
    threshold: ownThreshold,
    usage,
    assertions,
    reason,
  } = raw as Record<string, unknown>;
  // The SDK's `Evaluation.assertions` travels in the metadata, with the required ones that
  // failed as `failedRequired`: the reports explain a failed rubric from that list.
  let metadata = Array.isArray(assertions)
    ? {
        ...toMetadata((raw as Record<string, unknown>).metadata),
        assertions,
        failedRequired: failedRequiredOf(assertions),
      }
    : (raw as Record<string, unknown>).metadata;
  // `{ score, reason }`, as JavaScript evaluators written for other tools return: the reason is
  // kept where the reports read one (`metadata.reason`), not dropped without a word.
  const given = toMetadata(metadata);
  if (typeof reason === 'string' && (given === null || !('reason' in given))) {
    metadata = { ...given, reason };
  }

  let threshold: Threshold | null = evaluator.threshold ?? null;
  let thresholdError: string | null = null;
  if (threshold === null && ownThreshold != null) {
    const checked = checkThreshold(ownThreshold);
    if (checked.ok) {
      threshold = checked.threshold;
      // As evals.yaml refuses at load: a range no score meets fails every case, never meant.
      thresholdError = impossibleRange(checked.threshold);
    } else {
      // Not recorded: the artifact's threshold holds finite lt/lte/gt/gte numbers only.
      thresholdError = checked.problem;
    }
  }

  let error: string | null = null;
  let recordedScore: number | null = null;
  if (score === undefined) error = 'the evaluation has no score';
  else if (typeof score !== 'number') error = `score must be a number, got ${describeValue(score)}`;
  else if (Number.isNaN(score)) error = 'score is NaN';
  // Infinity would turn into null in the JSON artifact anyway, so it is not kept.
  else if (!Number.isFinite(score)) error = `score ${score} is outside [0, 1]`;
  else {
    // An out-of-range score is kept so the user sees what the evaluator produced.
    recordedScore = score;
    if (score < 0 || score > 1) error = `score ${score} is outside [0, 1]`;
  }
  error ??= thresholdError;

  const result: EvaluationResult = {
    evaluator: evaluator.id,
    score: recordedScore,
    threshold,
    passed: evaluationPassed(recordedScore, threshold, error),
    metadata: toMetadata(metadata),
    error,
    durationMs,
  };
  if (isUsage(usage) && hasUsage(usage)) result.usage = usage;
  return result;
}

/** A well-formed `Usage` (from user code it may be anything; a bad one is dropped, not fatal). */
export function isUsage(value: unknown): value is Usage {
  if (typeof value !== 'object' || value === null) return false;
  const u = value as Record<string, unknown>;
  const count = (x: unknown): boolean => typeof x === 'number' && Number.isFinite(x) && x >= 0;
  return (
    count(u.calls) &&
    count(u.cacheHits) &&
    count(u.promptTokens) &&
    count(u.completionTokens) &&
    count(u.latencyMs) &&
    (u.cost === null || count(u.cost)) &&
    (u.retries === undefined || (count(u.retries) && Number.isInteger(u.retries)))
  );
}

/**
 * The result of an evaluator that threw, rejected or timed out. An `EvaluationError` thrown
 * keeps its metadata (a judge's raw answer) and usage (the calls that were paid for).
 */
export function erroredEvaluation(
  evaluator: EvaluatorIdentity,
  error: string,
  durationMs: number,
  thrown?: unknown,
): EvaluationResult {
  const result: EvaluationResult = {
    evaluator: evaluator.id,
    score: null,
    threshold: evaluator.threshold ?? null,
    passed: false,
    metadata: null,
    error,
    durationMs,
  };
  if (isEvaluationError(thrown)) {
    const { metadata, usage } = thrown as { metadata?: unknown; usage?: unknown };
    if (metadata !== undefined) result.metadata = toMetadata(metadata);
    if (isUsage(usage) && hasUsage(usage)) result.usage = usage;
  }
  return result;
}

/** The criteria of rubric items that are required (the default) and did not pass. */
function failedRequiredOf(assertions: unknown[]): unknown[] {
  return assertions.flatMap((item) => {
    if (typeof item !== 'object' || item === null) return [];
    const { criterion, passed, required } = item as Record<string, unknown>;
    return passed === false && required !== false ? [criterion] : [];
  });
}

const BOUNDS: readonly string[] = ['lt', 'lte', 'gt', 'gte'];

/**
 * A threshold from user code, checked: an object whose keys are only `lt`, `lte`, `gt`, `gte`,
 * each a finite number, with one bound at least. Every other shape would pass the case
 * unchecked or fail it with no reason: an unknown key (`{ ge: 0.9 }`, a Python habit) is
 * ignored, a bound read from a setting that is not there (`{ gte: cfg.minScore }`, `undefined`
 * or `null`) leaves `{}`, which every score meets, and a NaN bound (`Number(process.env.UNSET)`)
 * fails it and is written as `null`. evals.yaml refuses the same thresholds.
 */
export function checkThreshold(
  value: unknown,
): { ok: true; threshold: Threshold } | { ok: false; problem: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      problem: `threshold must be an object of lt/lte/gt/gte numbers, got ${describeValue(value)}`,
    };
  }
  const threshold: Threshold = {};
  for (const [key, bound] of Object.entries(value)) {
    if (!BOUNDS.includes(key)) {
      return {
        ok: false,
        problem: `threshold has an unknown bound ${JSON.stringify(key)} (the bounds are lt, lte, gt and gte), got ${describeValue(value)}`,
      };
    }
    if (bound == null) {
      return {
        ok: false,
        problem: `threshold.${key} is ${bound === null ? 'null' : 'undefined'}: give a number, or leave the key out`,
      };
    }
    if (typeof bound !== 'number') {
      return {
        ok: false,
        problem: `threshold must be an object of lt/lte/gt/gte numbers, got ${describeValue(value)} (${key} is ${describeValue(bound)})`,
      };
    }
    if (!Number.isFinite(bound)) {
      return {
        ok: false,
        problem: `threshold.${key} must be a finite number, got ${describeValue(bound)}`,
      };
    }
    threshold[key as keyof Threshold] = bound;
  }
  if (Object.keys(threshold).length === 0) {
    return {
      ok: false,
      problem: `threshold has no bound: expected at least one of lt, lte, gt, gte, got ${describeValue(value)}`,
    };
  }
  return { ok: true, threshold };
}

/**
 * The artifact holds metadata as an object; a scalar or array an evaluator returns is kept
 * under `value` rather than dropped or turned into an error — metadata only explains a score.
 */
function toMetadata(metadata: unknown): Record<string, unknown> | null {
  if (metadata === undefined || metadata === null) return null;
  if (typeof metadata === 'object' && !Array.isArray(metadata)) {
    return metadata as Record<string, unknown>;
  }
  return { value: metadata };
}

/**
 * Whether `thrown` is an `EvaluationError`, ours or another copy's: a module named in evals.yaml
 * imports evalgate as installed (an SDK judge class's errors are that copy's), while the CLI
 * runs its own bundle, so `instanceof` alone would drop the usage of calls that were paid for.
 * Another copy's fields are checked as any user value is (`isUsage`, `toMetadata`).
 */
function isEvaluationError(thrown: unknown): boolean {
  return (
    thrown instanceof EvaluationError ||
    (thrown instanceof Error && thrown.name === 'EvaluationError')
  );
}
