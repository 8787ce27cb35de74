/**
 * The one rule for "the same number up to floating-point noise", used wherever evalgate does its
 * own arithmetic on scores and then compares the result: a gate on a mean, a rate or a κ, a
 * score inverted by `not: true`, a case's mean over its trials (run/trials.ts), and the per-case
 * changes a comparison tests.
 *
 * Decimal inputs are not exact in binary: three scores of 0.7 average to 0.6999999999999998,
 * `1 − 0.9` is 0.09999999999999998, and a κ of exactly 0.4 comes out as 0.3999999999999999. The
 * error is a few units in the last place (about 1e-16 of the value); compared as is, a value
 * that equals its bound fails it. Two forms of the rule, one noise level:
 *
 * - a value evalgate derives by adding or subtracting scores (a mean, κ, an inverted score) is
 *   rounded to 15 significant digits (`withoutNoise`) before a gate compares it and before it
 *   is stored. A double holds 15.95 significant digits, so 15 keeps every digit of any decimal
 *   a person wrote (a bound, a score) and drops the last bit or two the arithmetic got wrong.
 *   A rate of counts (a pass rate, accuracy: 29 of 30) is one correctly rounded division, so
 *   it already equals a bound it equals in the reals and is left exact: rounding it could only
 *   lift 29/30 onto a 15-digit bound just above it;
 * - two scores of one case, BASE's and HEAD's, are the same when they differ by at most
 *   `NOISE` of the score scale (`sameUpToNoise`). Rounding cannot be used there: a score is the
 *   user's, not derived, and `0.1 + 0.2 − 0.3` (5.6e-17, a distance computed another way) is a
 *   float-noise 0 that rounding to significant digits keeps. Scores live in [0, 1], so the
 *   scale is 1 (or the larger magnitude, for a value outside it): a tolerance relative to the
 *   score alone vanishes at 0, where 40 such cases would be a significant "regression".
 *   No real change of a score in [0, 1] is a billionth; floating-point sums and means of a
 *   case's trials err by far less (an ulp of 1 is 2.2e-16).
 *
 * A per-case threshold on a user's own score stays exact: it is their number, not evalgate's.
 */

/** Significant digits a derived value keeps (a double holds 15.95). */
export const SIGNIFICANT_DIGITS = 15;

/** The largest difference, as a share of the score scale [0, 1], that is floating-point noise. */
export const NOISE = 1e-9;

/**
 * `value` rounded to 15 significant digits: 0.6999999999999998 → 0.7. Non-finite values and 0
 * are returned as they are.
 */
export function withoutNoise(value: number): number {
  if (!Number.isFinite(value) || value === 0) return value;
  return Number(value.toPrecision(SIGNIFICANT_DIGITS));
}

/** `withoutNoise`, passing `null` through. */
export function withoutNoiseOrNull(value: number | null): number | null {
  return value === null ? null : withoutNoise(value);
}

/**
 * Whether two scores differ only by floating-point noise: by at most `NOISE` of the larger of 1
 * (the score range) and their magnitudes. Not at 0 alone: 0 and 5.6e-17 are the same score.
 */
export function sameUpToNoise(a: number, b: number): boolean {
  return Math.abs(a - b) <= NOISE * Math.max(1, Math.abs(a), Math.abs(b));
}
