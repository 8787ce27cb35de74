import type { Evaluation } from '../types.ts';
import { truncateText } from './metadata.ts';
import { ACTUAL_OPTION, IGNORE_CASE_OPTION } from './option-schemas.ts';
import { actualOf, optionalBoolean, requiredString, textOf } from './options.ts';
import { defineBuiltin } from './define.ts';

/**
 * Most dynamic-programming cells computed for one comparison (about 20–40 ms). Beyond it the
 * distance is an upper bound and the metadata says `approximate: true`.
 */
export const LEVENSHTEIN_CELL_BUDGET = 20_000_000;

/**
 * `levenshtein`: similarity to `expected` as `1 − distance / longer length`, counting Unicode
 * code points (1 for two empty strings). No default threshold: the score is a gradient.
 */
export const levenshtein = defineBuiltin({
  summary: 'Similarity to `expected`: 1 − edit distance / length of the longer text.',
  optionsSchema: {
    type: 'object',
    properties: {
      expected: { type: 'string', description: 'The reference text.' },
      actual: ACTUAL_OPTION,
      ignoreCase: IGNORE_CASE_OPTION,
    },
    required: ['expected'],
    additionalProperties: false,
  },
  score(values, args): Evaluation {
    const ignoreCase = optionalBoolean(values, 'ignoreCase', false);
    const expected = requiredString(values, 'expected');
    const actual = textOf(actualOf(values, args));
    // Compared lowercased when asked; the metadata still shows the texts as they were.
    const left = ignoreCase ? expected.toLowerCase() : expected;
    const right = ignoreCase ? actual.toLowerCase() : actual;
    if (left === right) return { score: 1, metadata: { distance: 0 } };
    const a = Array.from(left, (char) => char.codePointAt(0) ?? 0);
    const b = Array.from(right, (char) => char.codePointAt(0) ?? 0);
    const { distance, exact } = editDistance(a, b);
    const maxLength = Math.max(a.length, b.length);
    return {
      score: 1 - distance / maxLength,
      metadata: {
        distance,
        maxLength,
        ...(!exact && { approximate: true }),
        expected: truncateText(expected),
        actual: truncateText(actual),
      },
    };
  },
});

/**
 * Levenshtein distance between two code point sequences. Common prefix and suffix are dropped
 * first (near-identical long texts then cost almost nothing). Within the cell budget the result
 * is exact; past it, bands of doubling width around the diagonal are tried (Ukkonen): a band of
 * width k yields the exact distance whenever that distance is ≤ k, else an upper bound.
 */
export function editDistance(
  a: readonly number[],
  b: readonly number[],
  budget = LEVENSHTEIN_CELL_BUDGET,
): { distance: number; exact: boolean } {
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
  if (n * m <= budget) return { distance: bandedDistance(long, short, n), exact: true };
  let best = n;
  // The distance is at least n − m, so a narrower band could not even reach the last cell.
  for (let k = Math.max(n - m, 32); n * (2 * k + 1) <= budget; k *= 2) {
    const distance = bandedDistance(long, short, k);
    if (distance <= k) return { distance, exact: true };
    best = Math.min(best, distance);
  }
  return { distance: best, exact: false };
}

/**
 * Two-row dynamic programming restricted to cells with |i − j| ≤ k (k ≥ n: the full table).
 * Cells outside the band count as unreachable, which makes the result an upper bound that is
 * exact when the true distance is ≤ k.
 */
function bandedDistance(a: readonly number[], b: readonly number[], k: number): number {
  const n = a.length;
  const m = b.length;
  const unreachable = n + m + 1;
  let prev = new Uint32Array(m + 1).fill(unreachable);
  let cur = new Uint32Array(m + 1).fill(unreachable);
  for (let j = 0; j <= Math.min(m, k); j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - k);
    const hi = Math.min(m, i + k);
    cur[lo - 1] = lo === 1 ? i : unreachable;
    const ai = a[i - 1];
    for (let j = lo; j <= hi; j++) {
      const substitute = (prev[j - 1] ?? unreachable) + (ai === b[j - 1] ? 0 : 1);
      const remove = (prev[j] ?? unreachable) + 1;
      const insert = (cur[j - 1] ?? unreachable) + 1;
      cur[j] = Math.min(substitute, remove, insert);
    }
    // The next row reads one cell past this band: make sure it is not left over from before.
    if (hi < m) cur[hi + 1] = unreachable;
    [prev, cur] = [cur, prev];
  }
  return prev[m] ?? unreachable;
}
