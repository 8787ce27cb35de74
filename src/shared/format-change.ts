/**
 * How a change and a κ are written in every report: the terminal and markdown comparison
 * (`evals compare`, the PR comment), the gate's regression condition, a run's agreement line,
 * and the HTML report's page, whose script bundles this leaf too. One comparison then reads the
 * same on the page as in the comment: `0.862 → 0.812 (-0.050, 95% CI -0.081…-0.020)`.
 */
import { NOISE } from './float-noise.ts';
import { formatMean } from './format-numbers.ts';

/** Decimals of a score, a κ, and a change of either: as many as a mean score shows. */
export const SCORE_DIGITS = 3;

/** Decimals at most, however small the value. */
const MAX_DIGITS = 9;

/**
 * `Math.abs(value)` with `digits` decimals, or more when those would show a non-zero value as 0
 * (`0.0012` for 0.00123 at two digits); `0.00` for a value that is zero within rounding (the
 * noise level a comparison also uses to tell a changed score from an unchanged one).
 */
export function visibleFixed(value: number, digits: number): string {
  const size = Math.abs(value);
  if (size < NOISE) return (0).toFixed(digits);
  let shown = digits;
  // Bounded: at most MAX_DIGITS decimals.
  while (shown < MAX_DIGITS && size < 0.5 * 10 ** -shown) shown++;
  return size.toFixed(shown === digits ? digits : Math.min(MAX_DIGITS, shown + 1));
}

/** Whether `value` prints as zero: 0, or zero within floating-point rounding. */
export function isZeroShown(value: number): boolean {
  return Math.abs(value) < NOISE;
}

/**
 * `+0.05`, `-0.02`, `0.00` for zero (within rounding, so never `-0.00`). A small non-zero value
 * gets the decimals it needs (`+0.0012`), so a change never prints as if it were none.
 */
export function signed(value: number, digits: number): string {
  const text = visibleFixed(value, digits);
  if (isZeroShown(value)) return text;
  return `${value > 0 ? '+' : '-'}${text}`;
}

/**
 * `+0.050`, `-0.140`, `0.000`: a change of a mean score or of a κ, or an end of its interval,
 * with the decimals a small one needs (`+0.00040`).
 */
export function formatScoreChange(delta: number): string {
  return signed(delta, SCORE_DIGITS);
}

/**
 * `0.812`, `-0.250`: a κ with the decimals of a mean score, and like a mean never rounded to a
 * value it is not: short of 1 it never reads `1.000`, nor `0.000` or `-0.000` when it is not 0
 * (`0.99996`, `-0.0004`); 0 within floating-point rounding is `0.000`.
 */
export function formatKappa(kappa: number): string {
  if (isZeroShown(kappa)) return (0).toFixed(SCORE_DIGITS);
  const text = formatMean(Math.abs(kappa));
  return kappa < 0 ? `-${text}` : text;
}
