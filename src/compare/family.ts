/**
 * Many rows tested at once: Holm's step-down adjustment (what the gate blocks on) and the
 * Benjamini–Hochberg q-values (reported beside the raw p-values). Pure.
 */

/** Holm-adjusted and Benjamini–Hochberg-adjusted p-values, in the order of the input. */
export interface Adjusted {
  holm: number[];
  q: number[];
}

/**
 * A row's Benjamini–Hochberg q-value must be below this for the reports to call a change that does
 * not block a `possible regression` (or improvement). The row's own p < 0.05 is not enough: in a
 * pull request that changes nothing, one of 16 rows falls below it in about a quarter of
 * comparisons, one of 72 in five of six (bench/stats-false-alarm.ts). When nothing changed, every
 * row with q < 0.05 is a false discovery, so the false-discovery rate Benjamini–Hochberg holds at
 * 0.05 is then the chance that any row shows: at most about 5% however many rows (the study:
 * 1.3% of 4,500 pull requests, no scenario above 3.7%), while a real change among many keeps a q
 * close to its p. Why 0.05 and not 0.10: the study's figures in docs/statistics.md.
 */
export const POSSIBLE_CHANGE_Q = 0.05;

/**
 * Adjusts `pValues` for being tested together as one family.
 *
 * **Holm** (1979): sorted ascending, the i-th smallest (1-based) of F is multiplied by F − i + 1
 * and the running maximum is taken, so a row survives at α exactly when Holm's step-down
 * procedure rejects it. The chance that any true "no change" row survives is at most α, however
 * the rows depend on each other (a pass rate and the evaluators it is made of are strongly
 * correlated, and that is fine).
 *
 * **Benjamini–Hochberg** (1995): the i-th smallest is multiplied by F / i and the running minimum
 * from the top is taken: the q-value, the smallest false-discovery rate at which the row would be
 * called a discovery. Never used to block; it decides which rows the reports call a possible
 * change (`POSSIBLE_CHANGE_Q`).
 *
 * Both are capped at 1 and rounded to 12 significant digits, as α is. Ties keep their input
 * order, which changes nothing in the result.
 */
export function adjustFamily(pValues: readonly number[]): Adjusted {
  const count = pValues.length;
  const order = pValues.map((_, i) => i).sort((a, b) => (pValues[a] ?? 1) - (pValues[b] ?? 1));
  const holm = new Array<number>(count).fill(1);
  const q = new Array<number>(count).fill(1);
  let running = 0;
  for (const [rank, index] of order.entries()) {
    running = Math.max(running, Math.min(1, exact((count - rank) * (pValues[index] ?? 1))));
    holm[index] = running;
  }
  let smallest = 1;
  for (let rank = count - 1; rank >= 0; rank--) {
    const index = order[rank] ?? 0;
    smallest = Math.min(smallest, exact(((pValues[index] ?? 1) * count) / (rank + 1)));
    q[index] = smallest;
  }
  return { holm, q };
}

/**
 * A product of a p-value, rounded to 12 significant digits as α is (`significanceLevel`): 28 ×
 * 9/5,040 is 0.05 but computes as 0.049999999999999996, which would count as below α, and a
 * Holm p of 0.05 does not block. p-values are counts over at most millions of sign vectors (or
 * a normal tail), so no real value lies within 12 digits of α without being it.
 */
function exact(value: number): number {
  return Number(value.toPrecision(12));
}
