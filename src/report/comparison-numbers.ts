/**
 * Numbers of a comparison row that must not round to zero when they are not: a Δ, an interval end
 * or a detectable change below half the last printed digit gets the decimals it needs (two
 * significant digits), so `+0.00` or `could detect ±0.00` never stands for a real change; and
 * p-values, worded so the number never contradicts the row's label.
 */
import { NOISE } from '../shared/float-noise.ts';

/**
 * Below this, a value is 0 up to floating-point rounding and prints as zero: the noise level a
 * comparison also uses to tell a changed score from an unchanged one.
 */
const ROUNDING = NOISE;

/** Decimals at most, however small the value. */
const MAX_DIGITS = 9;

/**
 * `Math.abs(value)` with `digits` decimals, or more when those would show a non-zero value as 0
 * (`0.0012` for 0.00123 at two digits); `0.00` for a value that is zero within rounding.
 */
export function visibleFixed(value: number, digits: number): string {
  const size = Math.abs(value);
  if (size < ROUNDING) return (0).toFixed(digits);
  let shown = digits;
  // Bounded: at most MAX_DIGITS decimals.
  while (shown < MAX_DIGITS && size < 0.5 * 10 ** -shown) shown++;
  return size.toFixed(shown === digits ? digits : Math.min(MAX_DIGITS, shown + 1));
}

/** Whether `value` prints as zero: 0, or zero within floating-point rounding. */
export function isZeroShown(value: number): boolean {
  return Math.abs(value) < ROUNDING;
}

/** `±0.06`. */
export function plusMinus(value: number): string {
  return `±${visibleFixed(value, 2)}`;
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
 * `p < 0.001`, `p = 0.034`, `p = 1`. Three decimals, except that a p-value under 0.05 never
 * prints as `0.050` (it shows four), so the number never contradicts the label.
 */
export function formatP(p: number): string {
  if (p < 0.001) return 'p < 0.001';
  if (p >= 0.9995) return 'p = 1';
  const text = p.toFixed(3);
  return `p = ${p < 0.05 && text === '0.050' ? p.toFixed(4) : text}`;
}
