/**
 * `not: true`: an evaluator turned around. Its score becomes `1 − score`; a threshold the config
 * gives (or the evaluator declares) applies to that inverted score as written. A threshold the
 * evaluation itself returns for its case (levenshtein's `maxDistance`: "at most 2 edits" is
 * `≥ 0.8` on a 10-character pair) is the evaluator's own verdict on its own score, so it is
 * turned around too: the case passes exactly when, without `not`, it would fail.
 */
import { withoutNoise } from '../shared/float-noise.ts';
import type { EngineEvaluator, Evaluation, Threshold } from '../types/index.ts';

/**
 * The evaluation with its score inverted. A score outside 0..1 has no inverse, so the evaluation
 * is an error saying so; anything that is not an evaluation is left for the engine to report as
 * it would without `not`.
 */
export function negated(
  evaluation: ReturnType<EngineEvaluator['evaluateTestCase']>,
): ReturnType<EngineEvaluator['evaluateTestCase']> {
  if (evaluation instanceof Promise) return evaluation.then(invert);
  return invert(evaluation);
}

function invert(evaluation: Evaluation): Evaluation {
  if (typeof evaluation !== 'object' || evaluation === null) return evaluation;
  const { score } = evaluation;
  if (typeof score !== 'number' || Number.isNaN(score)) return evaluation;
  if (score < 0 || score > 1) {
    throw new Error(`not: true inverts a score between 0 and 1; the evaluator returned ${score}`);
  }
  // Rounded like every value evalgate derives: 1 − 0.9 is 0.09999999999999998, which would
  // fail the `gte: 0.1` that 0.9 inverted meets (see shared/float-noise.ts).
  const inverted = { ...evaluation, score: withoutNoise(1 - score) };
  const own: unknown = evaluation.threshold;
  if (own === undefined || own === null) return inverted;
  // What user code returned is checked by the engine as it would be without `not`.
  return { ...inverted, threshold: turnedAround(own) as Threshold };
}

/**
 * The bound on `1 − score` that passes exactly the scores `threshold` fails: `≥ t` becomes
 * `> 1 − t`, `> t` becomes `≥ 1 − t`, and so on. A range (two bounds) fails on both sides of
 * it, which one threshold cannot say: that is the case's error, naming what to write instead.
 * Anything else is left for the engine's check of thresholds to report.
 */
function turnedAround(threshold: unknown): unknown {
  if (typeof threshold !== 'object' || threshold === null) return threshold;
  const entries = Object.entries(threshold as Record<string, unknown>);
  if (entries.length !== 1) {
    if (entries.length === 0) return threshold;
    throw new Error(
      `not: true cannot turn around the range ${JSON.stringify(threshold)} the evaluator returned (the scores outside a range are no one threshold): give the evaluator a threshold: for the inverted score`,
    );
  }
  const [key, bound] = entries[0]!;
  if (typeof bound !== 'number' || !Number.isFinite(bound)) return threshold;
  const opposite: Record<string, keyof Threshold> = { gte: 'gt', gt: 'gte', lte: 'lt', lt: 'lte' };
  const turned = opposite[key];
  return turned === undefined ? threshold : { [turned]: withoutNoise(1 - bound) };
}
