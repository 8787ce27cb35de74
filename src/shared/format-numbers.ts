/**
 * Percentages, costs and seconds as every report writes them (terminal, markdown, JUnit, the HTML page):
 * a leaf with no imports but the count formatter, so the page's browser script bundles it too.
 */
import { formatCount } from './format-count.ts';

/**
 * `91.7%`, rounded to one decimal — except that a rate below 1 never shows as `100.0%` (0.9996
 * prints `99.9%`), so a run with a failure never looks all green.
 */
export function formatPercent(rate: number): string {
  const percent = Math.round(rate * 1000) / 10;
  return `${(rate < 1 && percent >= 100 ? 99.9 : percent).toFixed(1)}%`;
}

/**
 * `$0.0123`: four decimals below a dollar, since one judge call costs fractions of a cent, two
 * from a dollar with the dollars grouped (`$17.51`, `$1,234.50`); below $0.0001 two significant digits (`$0.000028`), so a
 * cost that is not nothing never reads as `$0.0000`; below a millionth of a dollar, `<$0.000001`.
 */
export function formatCost(dollars: number): string {
  if (dollars > 0 && dollars < 0.000001) return '<$0.000001';
  if (dollars > 0 && dollars < 0.0001) {
    // Decimals up to the second significant digit: 2.8e-5 → 6 decimals.
    const decimals = 1 - Math.floor(Math.log10(dollars));
    return `$${dollars.toFixed(decimals).replace(/0+$/, '')}`;
  }
  // Whole dollars grouped as every count is (`$1,234.50`); cents only from a dollar up
  // (`$17.51`, not `$17.5100`), four decimals below it (`$0.0123`).
  const [whole = '0', cents = ''] = dollars.toFixed(dollars >= 1 ? 2 : 4).split('.');
  return `$${formatCount(Number(whole))}.${cents}`;
}

/** `3,723.4 s`: milliseconds as seconds with one decimal, the whole seconds grouped. */
export function formatSeconds(ms: number): string {
  const tenths = Math.round(ms / 100);
  return `${formatCount(Math.floor(tenths / 10))}.${tenths % 10} s`;
}

/**
 * A mean score: three decimals (`0.862`), except that a mean below 1 never shows as `1.000` nor
 * one above 0 as `0.000`: it gets the decimals it needs (`0.9997` for 2,999 passes of 3,000), so
 * a perfect-looking mean never hides a failed case. At most 17 decimals, then the exact value.
 */
export function formatMean(mean: number): string {
  // Bounded: 3 to 17 decimals.
  for (let decimals = 3; decimals <= 17; decimals++) {
    const text = mean.toFixed(decimals);
    const shown = Number(text);
    if ((shown === 1 && mean < 1) || (shown === 0 && mean > 0)) continue;
    return text;
  }
  return String(mean);
}
