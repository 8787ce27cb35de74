/**
 * Load-time sense check of a threshold: a range no score in [0, 1] can fall in would make an
 * evaluator (or a gate) fail on every run, which is never what the author meant.
 */
import type { Threshold } from '../types/index.ts';

const BOUNDS = [
  ['gt', '>'],
  ['gte', '>='],
  ['lt', '<'],
  ['lte', '<='],
] as const;

/**
 * A message when no value in [0, 1] meets every bound (`gt: 0.8, lt: 0.5`, `gt: 0.5, lt: 0.5`,
 * `gt: 1`), else `null`. For evals.yaml: bounds that are not numbers in [0, 1] are the schema's
 * to report, so they give `null` here.
 */
export function impossibleThreshold(threshold: Threshold): string | null {
  return hasUnitBounds(threshold) ? impossibleRange(threshold) : null;
}

/**
 * As {@link impossibleThreshold}, for any finite bounds: a threshold from code has no schema, so
 * a bound outside [0, 1] (`gte: 1.5`, a percentage written as a share, `lt: 0`) is reported here.
 * Bounds that are not finite numbers give `null`: `checkThreshold` reports those.
 */
export function impossibleRange(threshold: Threshold): string | null {
  const given = BOUNDS.filter(([key]) => threshold[key] !== undefined);
  if (given.some(([key]) => !Number.isFinite(threshold[key]))) return null;
  let low = 0;
  let lowStrict = false;
  let high = 1;
  let highStrict = false;
  const { gt, gte, lt, lte } = threshold;
  if (gte !== undefined && gte > low) low = gte;
  if (gt !== undefined && gt >= low) [low, lowStrict] = [gt, true];
  if (lte !== undefined && lte < high) high = lte;
  if (lt !== undefined && lt <= high) [high, highStrict] = [lt, true];
  const empty = low > high || (low === high && (lowStrict || highStrict));
  if (!empty) return null;
  const text = given.map(([key, sign]) => `${sign} ${String(threshold[key])}`).join(' and ');
  return `impossible threshold: no score in [0, 1] is ${text}`;
}

/** Whether every bound given is a number in [0, 1], the only bounds evals.yaml's schema allows. */
function hasUnitBounds(threshold: Threshold): boolean {
  return BOUNDS.every(([key]) => {
    const bound: unknown = threshold[key];
    return bound === undefined || (typeof bound === 'number' && bound >= 0 && bound <= 1);
  });
}
