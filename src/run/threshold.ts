import { withoutNoise } from '../shared/float-noise.ts';
import type { Threshold } from '../types/index.ts';

/**
 * An evaluation's pass status: `false` when it errored or has no score, `null` without a
 * threshold (reported, never counted), else whether the score meets the threshold.
 */
export function evaluationPassed(
  score: number | null,
  threshold: Threshold | null,
  error: string | null,
): boolean | null {
  if (error !== null) return false;
  if (threshold === null) return null;
  return score !== null && meetsThreshold(score, threshold);
}

/**
 * Whether a score meets every bound of a threshold; NaN meets no bound. A threshold with no
 * bounds would accept every score: the config's schema and the SDK's `checkThreshold` refuse it
 * before it gets here. A `null` bound, which a checked threshold never has, counts as absent.
 */
export function meetsThreshold(score: number, t: Threshold): boolean {
  if (t.gt != null && !(score > t.gt)) return false;
  if (t.gte != null && !(score >= t.gte)) return false;
  if (t.lt != null && !(score < t.lt)) return false;
  if (t.lte != null && !(score <= t.lte)) return false;
  return true;
}

/**
 * Whether a threshold bounds a score from above only (`lte` and/or `lt`, no `gte` or `gt`): the
 * evaluator's lower scores are its better ones (a hallucination rate, a cost). A threshold with
 * no bounds, or with a lower bound (a band included), says nothing of the kind.
 */
export function isUpperBoundOnly(t: Threshold): boolean {
  const upper = t.lt != null || t.lte != null;
  const lower = t.gt != null || t.gte != null;
  return upper && !lower;
}

/** Whether a threshold has any bound at all (`{}` accepts every score and has no direction). */
export function hasBound(t: Threshold): boolean {
  return t.lt != null || t.lte != null || t.gt != null || t.gte != null;
}

/**
 * Human text for a threshold, lower bounds first: `≥ 0.8`, `> 0.5, < 0.9`; `any score` when
 * it has no bounds. Shared by reports and gate messages so they read the same everywhere.
 * A bound an evaluator derived (levenshtein's `1 − 7/10` is 0.30000000000000004) is shown
 * without float noise; only the text: the comparison keeps the exact bound.
 */
export function describeThreshold(t: Threshold): string {
  const parts: string[] = [];
  if (t.gt != null) parts.push(`> ${shownBound(t.gt)}`);
  if (t.gte != null) parts.push(`≥ ${shownBound(t.gte)}`);
  if (t.lt != null) parts.push(`< ${shownBound(t.lt)}`);
  if (t.lte != null) parts.push(`≤ ${shownBound(t.lte)}`);
  return parts.length > 0 ? parts.join(', ') : 'any score';
}

/** A bound as describeThreshold writes it: to 15 significant digits, which keeps any decimal a person wrote. */
function shownBound(bound: number): number {
  return withoutNoise(bound);
}
