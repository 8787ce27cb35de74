/**
 * The one test behind every score and pass-rate row of a comparison: the paired sign-flip
 * (permutation) test of the mean difference, and the confidence interval made by inverting that
 * same test. Pure and deterministic: the same differences and seed give the same numbers, bit
 * for bit.
 */
import { halfBinomialBelow, normalQuantileUpper, normalUpperTail } from './normal.ts';
import { drawsMore, signFlipTailBound, resamplingStages } from './resampling-stages.ts';
import { mulberry32Words, orderStatistic, SignVectors } from './sign-vectors.ts';

/** A deterministic source of uniform numbers in [0, 1). */
export type Random = () => number;

/**
 * Mulberry32 (Tommy Ettinger's 32-bit generator): one 32-bit state word, period 2^32. Chosen
 * because it is tiny, fast in JavaScript (pure `Math.imul` and shifts) and gives the same stream
 * on every engine, which is what makes a comparison reproducible. Not for anything cryptographic.
 */
export function mulberry32(seed: number): Random {
  const next = mulberry32Words(seed);
  return () => next() / 4294967296;
}

/** Options of `signFlipTest`. */
export interface SignFlipOptions {
  /** Random sign vectors drawn first; 4,999 by default. */
  resamples?: number;
  /**
   * The most a row whose p stays small draws, in stages (`resampling-stages.ts`); `resamples`
   * unless told. A large family sets it so that p can reach its Holm thresholds.
   */
  maxResamples?: number;
  /** PRNG seed; the same seed gives the same result. */
  seed?: number;
  /** Coverage of the interval, in (0, 1); 0.95 by default. */
  confidence?: number;
}

/** The mean of paired differences, its confidence interval and its two-sided p-value. */
export interface SignFlipResult {
  mean: number;
  low: number;
  high: number;
  /** Below 1 − confidence exactly when [low, high] excludes 0. */
  pValue: number;
  /** Standard deviation of the differences (n − 1 in the denominator; 0 for fewer than 2). */
  sd: number;
  /**
   * How p and the interval were found: every sign vector enumerated (`exact`, up to
   * `EXACT_LIMIT` non-zero differences), random sign flips, or the normal approximation.
   */
  method: 'exact' | 'resampled' | 'normal';
  /** Random sign vectors drawn, when some were: p is (1 + reaching) / (drawn + 1). */
  drawn?: number;
}

/** Sign vectors drawn by `signFlipTest` unless told otherwise: p-values are multiples of 1/5000. */
export const DEFAULT_RESAMPLES = 4999;
/** Seed used by `signFlipTest` unless told otherwise. */
export const DEFAULT_SEED = 0x5eed;
/**
 * Sign flips one row may cost (non-zero differences × sign vectors) before `signFlipTest` uses
 * the normal approximation of the sign-flip distribution instead: 5,000 changed cases at the
 * default 4,999 vectors, fewer when a large family needs more vectors. By then the two agree to
 * far better than the resampling's own error, and a 100,000-case run costs O(n) instead of
 * O(n × resamples), so a comparison's time is bounded whatever its size.
 */
export const RESAMPLING_WORK = 25_000_000;

/**
 * Up to this many non-zero differences `signFlipTest` enumerates all 2^m sign vectors and gives
 * the exact p-value, which random draws only approach (10 changes all one way: exactly 2/1024,
 * where 4,999 draws report about twice that). 12, not more: the interval's bisection passes over
 * every vector some 80 times, about 25 ms a row at 4,096 vectors but a quarter of a second at
 * 65,536, where resampling costs a few milliseconds.
 */
export const EXACT_LIMIT = 12;

/**
 * Relative tolerance of every tie: |Σ s·d| and |Σ d| within this fraction of Σ|d| are equal.
 * Differences such as 1/3 (trials averaged) or 0.7 are not exact in floating point, so a sum
 * equal to |Σ d| in the reals lands an ulp above or below it, and a strict `≥` drops about half
 * of the ties: p would depend on the units of the scores. Relative to Σ|d| (the largest either
 * sum can be), the tolerance scales with the scores, so multiplying every difference by a
 * constant changes nothing; summing thousands of doubles errs by ~1e-13 of Σ|d|, far below it,
 * and a real gap smaller than it means nothing (as a tie it only raises p, never lowers it).
 * Counting in exact units would need a common unit, which 1/3 or a judge's 0.7 does not have.
 * A single difference of float noise reaches it as 0 (`sameUpToNoise`, shared/float-noise.ts).
 */
export const TIE_TOLERANCE = 1e-9;

/**
 * The level α of a `confidence` interval, rounded to 12 significant digits: `1 − 0.95` is
 * 0.050000000000000044 in floating point, under which p = 0.05 (250 of 5,000) would count as
 * significant and the interval's rank (α·5000 − 1 = 249.0000000000002, rounded up to 250) would
 * leave 0 out at the same time. Every comparison of p with α uses this one value.
 */
export function significanceLevel(confidence: number): number {
  return Number((1 - confidence).toPrecision(12));
}

/** With more non-zero differences than this, `signFlipTest` uses the normal approximation. */
export function resamplingLimit(resamples: number): number {
  return Math.floor(RESAMPLING_WORK / resamples);
}

/** The limit at the default number of sign vectors: 5,001 changed cases. */
export const RESAMPLING_LIMIT = resamplingLimit(DEFAULT_RESAMPLES);

/**
 * The paired sign-flip test of "no change" and its inverted interval.
 *
 * **The test.** Under "no change", HEAD and BASE are exchangeable within each case, so each
 * difference d_i is as likely to have come out as −d_i. The test asks how often a sign vector s
 * gives |Σ s_i·d_i| at least the observed |Σ d_i| (ties within `TIE_TOLERANCE`, so the answer does
 * not depend on the units of the scores). With up to `EXACT_LIMIT` non-zero differences every
 * vector is counted and p is exact; above, `resamples` random vectors are drawn (and, up to
 * `maxResamples`, more in stages while p stays small: `resampling-stages.ts`) and
 * p = (1 + that count) / (vectors drawn + 1). Both are exactly valid (never below the nominal
 * rate under the null) whatever the distribution of the scores.
 *
 * **The interval** is every shift δ the same test would not reject on d_i − δ, with the same
 * sign vectors. For one vector the rejected shifts are solved in closed form (|A − δS| ≥ |D − nδ|
 * is a quadratic inequality, A = Σ s_i d_i, S = Σ s_i, D = Σ d_i), each vector contributes one
 * interval of shifts around the mean, and the bounds are (weighted) order statistics of their
 * ends. So p < α exactly when the interval excludes 0, by construction. A tie puts an end at
 * exactly 0, never at ±1e-18. Zero differences never change A, only S, so they are drawn as a
 * popcount of random words (or weighted binomially when exact): a run with few changed cases
 * costs little however many cases it has.
 *
 * Shifting moves the unchanged cases too, so ties at δ = 0 are lost as soon as δ leaves it: with
 * many unchanged cases or steps of one size, an end sits exactly at 0 whenever the row is not
 * significant (0 inside, at the edge). That is the inverted test, not a near-significant result.
 *
 * **Large runs.** Above `resamplingLimit(maxResamples)` non-zero differences the sign-flip distribution of
 * Σ s_i(d_i − δ) is normal to within far less than the resampling's error, with variance
 * Σ (d_i − δ)²: p = 2·P(Z > |D| / √Σd_i²), and the interval solves |D − nδ| ≤ z·√Σ(d_i − δ)²,
 * i.e. mean ± z·√(SS / (n(n − z²))) with SS the sum of squares about the mean. Still one test for
 * both, so still p < α exactly when 0 is outside (up to floating-point rounding at the boundary).
 *
 * **Edge cases.** No pairs or all differences 0: mean 0, interval [0, 0], p = 1. One pair: every
 * sign vector flips it onto itself, so p = 1. An interval end no sign vector bounds (a handful of
 * cases) is the largest |d_i| on that side of 0, never infinite and never 0 itself.
 */
export function signFlipTest(
  diffs: ArrayLike<number>,
  options: SignFlipOptions = {},
): SignFlipResult {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const most = Math.max(resamples, options.maxResamples ?? resamples);
  const confidence = options.confidence ?? 0.95;
  const seed = options.seed ?? DEFAULT_SEED;
  if (!Number.isInteger(resamples) || resamples < 1 || !Number.isInteger(most)) {
    throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  }
  if (!(confidence > 0 && confidence < 1)) {
    throw new RangeError(`confidence must be between 0 and 1, got ${confidence}`);
  }
  const alpha = significanceLevel(confidence);
  // The interval needs at least one resample inside its tail: p can only reach α with enough.
  if ((resamples + 1) * alpha < 1) {
    throw new RangeError(
      `${resamples} resamples cannot resolve a ${confidence * 100}% interval; use at least ${Math.ceil(1 / alpha) - 1}`,
    );
  }

  const n = diffs.length;
  let sum = 0;
  let nonZero = 0;
  let magnitude = 0;
  let largest = 0;
  for (let i = 0; i < n; i++) {
    const value = diffs[i] ?? 0;
    if (!Number.isFinite(value)) throw new RangeError(`diffs[${i}] is not a finite number`);
    sum += value;
    if (value !== 0) nonZero++;
    magnitude += Math.abs(value);
    largest = Math.max(largest, Math.abs(value));
  }
  if (nonZero === 0) return { mean: 0, low: 0, high: 0, pValue: 1, sd: 0, method: 'resampled' };
  const mean = sum / n;
  let squares = 0;
  let squaresAboutMean = 0;
  for (let i = 0; i < n; i++) {
    const value = diffs[i] ?? 0;
    squares += value * value;
    squaresAboutMean += (value - mean) * (value - mean);
  }
  const sd = n > 1 ? Math.sqrt(squaresAboutMean / (n - 1)) : 0;

  // The limit of the most a row may draw, so a row's work stays bounded whatever its p.
  if (nonZero > resamplingLimit(most)) {
    const z = normalQuantileUpper(alpha / 2);
    const half = z * Math.sqrt(squaresAboutMean / (n * (n - z * z)));
    const pValue = Math.min(1, 2 * normalUpperTail(Math.abs(sum) / Math.sqrt(squares)));
    return { mean, low: mean - half, high: mean + half, pValue, sd, method: 'normal' };
  }

  const values = new Float64Array(nonZero);
  for (let i = 0, j = 0; i < n; i++) {
    const value = diffs[i] ?? 0;
    if (value !== 0) values[j++] = value;
  }
  const tolerance = TIE_TOLERANCE * magnitude;
  // An end no sign vector bounds (only with a handful of cases, never with a verdict): the
  // largest change seen, on that side of 0. Never 0 itself, which would look like a bound.
  const finite = (bound: number, side: 1 | -1): number =>
    Number.isFinite(bound) ? bound : side * largest;
  if (nonZero <= EXACT_LIMIT) {
    const exact = exactTest(values, n - nonZero, sum, magnitude, alpha);
    return {
      mean,
      low: finite(exact.low, -1),
      high: finite(exact.high, 1),
      pValue: exact.pValue,
      sd,
      method: 'exact',
    };
  }
  // A change so large that even Hoeffding's bound is below every p the ceiling can give needs no
  // more than the first stage, for its interval (`signFlipTailBound`). Only where a family draws
  // past the first stage: a smaller one's rows are as they were.
  const bound = signFlipTailBound(sum, squares, tolerance);
  const clear = most > resamples && bound < 1 / (most + 1);
  const stages = clear ? [resamples] : resamplingStages(resamples, most);
  const shifts = rejectedShifts(values, n - nonZero, sum, tolerance, stages, alpha, seed);
  const { lows, highs, covering, drawn } = shifts;
  // A shift δ is kept while at least `rank` resamples reject it: (1 + count)/(B + 1) ≥ α. Found
  // by the same division as p, so that p < α exactly when fewer than `rank` vectors cover 0.
  let rank = Math.max(0, Math.floor(alpha * (drawn + 1)) - 2);
  while ((1 + rank) / (drawn + 1) < alpha) rank++;
  return {
    mean,
    low: finite(rank === 0 ? -Infinity : orderStatistic(lows, rank - 1), -1),
    high: finite(rank === 0 ? Infinity : orderStatistic(highs, drawn - rank), 1),
    // The bound only while the interval leaves 0 out too, as p < α must (it always does there).
    pValue: clear && (1 + covering) / (drawn + 1) < alpha ? bound : (1 + covering) / (drawn + 1),
    sd,
    method: 'resampled',
    drawn,
  };
}

/** `total − flipped` or `total + flipped`, exactly 0 when it is 0 within `tolerance`. */
function root(value: number, tolerance: number): number {
  return Math.abs(value) <= tolerance ? 0 : value;
}

/**
 * The test with every sign vector of the m non-zero differences enumerated: p is the share of the
 * 2^m vectors whose |Σ s·d| reaches |Σ d|, exactly. The zeros' signs change only S (see
 * `rejectedShifts`), so for the interval each vector stands for every count k of plus signs among
 * the z zeros, weighted C(z, k) / 2^z: 12 changes among 100,000 cases cost 4,096 vectors. The
 * lower end is the smallest shift δ that vectors of weight α or more reject (their interval
 * reaches δ), by bisection from the exact count at δ = 0, so p < α exactly when the interval
 * leaves 0 out; the upper end is the lower end of the negated differences.
 */
function exactTest(
  values: Float64Array,
  zeros: number,
  total: number,
  magnitude: number,
  alpha: number,
): { low: number; high: number; pValue: number } {
  const count = values.length;
  const vectors = 2 ** count;
  const tolerance = TIE_TOLERANCE * magnitude;
  // Per vector: D − A and A + D (its ends' numerators) and 2 × its minus signs.
  const minusRoot = new Float64Array(vectors);
  const plusRoot = new Float64Array(vectors);
  const minus2 = new Int32Array(vectors);
  let covering = 0;
  for (let mask = 0; mask < vectors; mask++) {
    let flipped = 0;
    let minus = 0;
    for (let i = 0; i < count; i++) {
      const value = values[i] ?? 0;
      const plus = (mask >>> i) & 1;
      flipped += plus === 1 ? value : -value;
      minus += 1 - plus;
    }
    const first = root(total - flipped, tolerance);
    const second = root(flipped + total, tolerance);
    [minusRoot[mask], plusRoot[mask], minus2[mask]] = [first, second, 2 * minus];
    // Its interval holds 0 when its ends are either side of 0: |A| ≥ |D| within tolerance.
    if (first === 0 || second === 0 || first > 0 !== second > 0) covering++;
  }
  const pValue = covering / vectors;
  const below = halfBinomialBelow(zeros);
  // Ends (D − A)/(P + 2j) and (A + D)/(Q + 2k), with j = z − k and P, Q twice the vector's minus
  // and plus signs; each "end ≤ δ" is a half-line in k, one from each side. Negated differences
  // negate both numerators and keep P and Q.
  const lowerEnd = (sign: 1 | -1): number => {
    // Only the two vectors of all-equal signs reject every shift: with weight α they leave
    // this end unbounded.
    if (2 ** (1 - count - zeros) >= alpha) return -Infinity;
    // The weight of the vectors with an end at δ or below (δ ≠ 0): k ≤ left or k ≥ right.
    const reaching = (delta: number): number => {
      let sum = 0;
      for (let mask = 0; mask < vectors; mask++) {
        const p = minus2[mask] ?? 0;
        const j = (sign * (minusRoot[mask] ?? 0) - delta * p) / (2 * delta);
        const k = (sign * (plusRoot[mask] ?? 0) - delta * (2 * count - p)) / (2 * delta);
        const left = Math.max(-1, delta > 0 ? zeros - Math.ceil(j) : Math.floor(k));
        const right = Math.min(zeros + 1, delta > 0 ? Math.ceil(k) : zeros - Math.floor(j));
        sum += left + 1 >= right ? 1 : (below[left + 1] ?? 0) + 1 - (below[right] ?? 1);
      }
      return sum / vectors;
    };
    // Every finite end is within Σ|d| of 0 (numerators ≤ 2Σ|d|, denominators ≥ 2).
    let [lo, hi] = [-2 * magnitude, (sign * total) / (count + zeros)];
    if (hi >= 0) [lo, hi] = pValue >= alpha ? [lo, 0] : [0, hi];
    for (let step = 0; step < 200 && hi - lo > 1e-12 * magnitude; step++) {
      const mid = lo + (hi - lo) / 2;
      if (mid === lo || mid === hi) break;
      if (reaching(mid) >= alpha) hi = mid;
      else lo = mid;
    }
    // The bound is the largest end in (lo, hi]: the bisection only brackets it.
    let bound = hi;
    const nearest = (c: number, base: number): void => {
      const guess = Math.round((c / hi - base) / 2);
      for (let t = Math.max(0, guess - 1); t <= Math.min(zeros, guess + 1); t++) {
        const end = base + 2 * t > 0 ? c / (base + 2 * t) : NaN;
        if (end > lo && end <= hi && (bound === hi || end > bound)) bound = end;
      }
    };
    for (let mask = 0; mask < vectors && hi !== 0; mask++) {
      const p = minus2[mask] ?? 0;
      nearest(sign * (minusRoot[mask] ?? 0), p);
      nearest(sign * (plusRoot[mask] ?? 0), 2 * count - p);
    }
    return bound;
  };
  // 0 − end, not −end: an upper end at 0 is +0, not −0.
  return { low: lowerEnd(1), high: 0 - lowerEnd(-1), pValue };
}

/**
 * For each random sign vector, the interval of shifts δ at which that vector's
 * statistic |Σ s_i(d_i − δ)| reaches the observed |Σ(d_i − δ)|, and how many of those intervals
 * hold 0 (the count behind p at δ = 0).
 *
 * (A − δS)² ≥ (D − nδ)² factors as (A − D + δ(n − S))·(A + D − δ(n + S)) ≥ 0; both factors are
 * equal at δ = D/n, so the set is the closed interval between their roots (D − A)/(n − S) and
 * (A + D)/(n + S), which always holds the mean. A vector of all + or all − signs reproduces the
 * data and rejects every shift: its interval is the whole line.
 *
 * The vectors are drawn in `stages` (sizes so far) from one seeded stream, the next stage only
 * while `drawsMore` says p is still small, so a row's first vectors are the same whatever its
 * ceiling.
 */
function rejectedShifts(
  values: Float64Array,
  zeros: number,
  total: number,
  tolerance: number,
  stages: readonly number[],
  alpha: number,
  seed: number,
): { lows: Float64Array; highs: Float64Array; covering: number; drawn: number } {
  const n = values.length + zeros;
  const vectors = new SignVectors(values, zeros, seed);
  let lows: Float64Array = new Float64Array(0);
  let highs: Float64Array = new Float64Array(0);
  let covering = 0;
  let b = 0;
  for (const size of stages) {
    if (b > 0 && !drawsMore(covering, b, alpha)) break;
    [lows, highs] = [grown(lows, size), grown(highs, size)];
    for (; b < size; b++) {
      vectors.draw();
      const { flipped, signs } = vectors;
      let low = -Infinity;
      let high = Infinity;
      if (signs !== n && signs !== -n) {
        // A tie (|A| = |D| in the reals) puts an end at exactly 0, so the vector holds 0.
        const first = root(total - flipped, tolerance) / (n - signs);
        const second = root(flipped + total, tolerance) / (n + signs);
        low = Math.min(first, second);
        high = Math.max(first, second);
      }
      lows[b] = low;
      highs[b] = high;
      if (low <= 0 && high >= 0) covering++;
    }
  }
  return { lows, highs, covering, drawn: b };
}

/** `values` at the start of a new array of `size`: a stage's room for its vectors' ends. */
function grown(values: Float64Array, size: number): Float64Array {
  const bigger = new Float64Array(size);
  bigger.set(values);
  return bigger;
}
