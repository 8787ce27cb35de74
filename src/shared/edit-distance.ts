/**
 * The one edit distance: Levenshtein by Unicode code point, optionally counting a swap of two
 * neighbours as one edit, with a bound on the work so two huge texts cannot stall a run. Used by
 * the `levenshtein` evaluator and by the "did you mean" hints for keys and module files.
 */

/**
 * Most dynamic-programming cells computed for one comparison (about 20–40 ms). Beyond it the
 * distance is an upper bound and `exact` is false.
 */
export const LEVENSHTEIN_CELL_BUDGET = 20_000_000;

/** How {@link editDistance} counts. */
export interface EditDistanceOptions {
  /**
   * A swap of two adjacent characters is one edit, not two (optimal string alignment:
   * `tiemout` is 1 from `timeout`). Default false: plain Levenshtein.
   */
  transpositions?: boolean;
  /** Most table cells to compute; default {@link LEVENSHTEIN_CELL_BUDGET}. */
  budget?: number;
}

/** The result of {@link editDistance}. */
export interface EditDistance {
  /** Fewest insertions, deletions and substitutions (and swaps, when counted). */
  distance: number;
  /** False when the budget ran out: `distance` is then an upper bound. */
  exact: boolean;
}

/**
 * Edit distance between two texts, counted in code points (an emoji is one character, a
 * combining accent its own). A common prefix and suffix are dropped first, so near-identical
 * long texts cost almost nothing. Within the cell budget the result is exact; past it, bands of
 * doubling width around the diagonal are tried (Ukkonen): a band of width k yields the exact
 * distance whenever that distance is ≤ k, else an upper bound.
 */
export function editDistance(
  left: string,
  right: string,
  options: EditDistanceOptions = {},
): EditDistance {
  const a = codePoints(left);
  const b = codePoints(right);
  const budget = options.budget ?? LEVENSHTEIN_CELL_BUDGET;
  const transpositions = options.transpositions ?? false;

  // Dropping what both ends share cannot change the distance, swaps included.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  // Rows run over the shorter text, so memory is O(min(n, m)).
  const [long, short] =
    endA - start >= endB - start
      ? [a.slice(start, endA), b.slice(start, endB)]
      : [b.slice(start, endB), a.slice(start, endA)];
  const n = long.length;
  const m = short.length;
  if (m === 0) return { distance: n, exact: true };
  if (n * m <= budget) {
    return { distance: bandedDistance(long, short, n, transpositions), exact: true };
  }
  let best = n;
  // The distance is at least n − m, so a narrower band could not even reach the last cell.
  for (let k = Math.max(n - m, 32); n * (2 * k + 1) <= budget; k *= 2) {
    const distance = bandedDistance(long, short, k, transpositions);
    if (distance <= k) return { distance, exact: true };
    best = Math.min(best, distance);
  }
  return { distance: best, exact: false };
}

function codePoints(text: string): number[] {
  return Array.from(text, (char) => char.codePointAt(0) ?? 0);
}

/**
 * Row-by-row dynamic programming restricted to cells with |i − j| ≤ k (k ≥ n: the full table).
 * Cells outside the band count as unreachable, which makes the result an upper bound that is
 * exact when the true distance is ≤ k: every edit that leaves the diagonal costs one. A swap
 * stays on its diagonal, so it reads a cell of the row before last that is inside the band.
 */
function bandedDistance(
  a: readonly number[],
  b: readonly number[],
  k: number,
  transpositions: boolean,
): number {
  const n = a.length;
  const m = b.length;
  const unreachable = n + m + 1;
  // Three rows: the one before last only for swaps.
  let beforeLast = new Uint32Array(m + 1).fill(unreachable);
  let prev = new Uint32Array(m + 1).fill(unreachable);
  let cur = new Uint32Array(m + 1).fill(unreachable);
  for (let j = 0; j <= Math.min(m, k); j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - k);
    const hi = Math.min(m, i + k);
    cur[lo - 1] = lo === 1 ? i : unreachable;
    const ai = a[i - 1];
    const swappable = transpositions && i > 1;
    for (let j = lo; j <= hi; j++) {
      const bj = b[j - 1];
      const substitute = (prev[j - 1] ?? unreachable) + (ai === bj ? 0 : 1);
      const remove = (prev[j] ?? unreachable) + 1;
      const insert = (cur[j - 1] ?? unreachable) + 1;
      let best = Math.min(substitute, remove, insert);
      if (swappable && j > 1 && ai === b[j - 2] && a[i - 2] === bj) {
        best = Math.min(best, (beforeLast[j - 2] ?? unreachable) + 1);
      }
      cur[j] = best;
    }
    // The next row reads one cell past this band: make sure it is not left over from before.
    if (hi < m) cur[hi + 1] = unreachable;
    [beforeLast, prev, cur] = [prev, cur, beforeLast];
  }
  return prev[m] ?? unreachable;
}
