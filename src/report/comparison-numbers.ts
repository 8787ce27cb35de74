/**
 * Numbers of a comparison row that must not round to zero when they are not: a Δ, an interval end
 * or a detectable change below half the last printed digit gets the decimals it needs (two
 * significant digits), so `+0.00` or `could detect ±0.00` never stands for a real change.
 */

/** Below this, a value is 0 up to floating-point rounding and prints as zero. */
const ROUNDING = 1e-9;

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
