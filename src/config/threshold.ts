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
 * `gt: 1`), else `null`. Bounds that are not numbers in [0, 1] are the schema's to report.
 */
export function impossibleThreshold(threshold: Threshold): string | null {
  const given = BOUNDS.filter(([key]) => threshold[key] !== undefined);
  if (given.some(([key]) => !isUnit(threshold[key]))) return null;
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

function isUnit(value: unknown): boolean {
  return typeof value === 'number' && value >= 0 && value <= 1;
}
