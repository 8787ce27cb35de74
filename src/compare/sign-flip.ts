/**
 * The one test behind every score and pass-rate row of a comparison: the paired sign-flip
 * (permutation) test of the mean difference, and the confidence interval made by inverting that
 * same test. Pure and deterministic: the same differences and seed give the same numbers, bit
 * for bit.
 */
import { normalQuantileUpper, normalUpperTail } from './normal.ts';

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

/** The same stream as `mulberry32(seed)`, as unsigned 32-bit words. */
function mulberry32Words(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** Options of `signFlipTest`. */
export interface SignFlipOptions {
  /** Random sign vectors drawn; 4,999 by default. */
  resamples?: number;
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
  /** How p and the interval were found: by random sign flips, or the normal approximation. */
  method: 'resampled' | 'normal';
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
 * difference d_i is as likely to have come out as −d_i. The test draws `resamples` random sign
 * vectors s and asks how often |Σ s_i·d_i| is at least the observed |Σ d_i|:
 * p = (1 + that count) / (resamples + 1), which is exactly valid (never below the nominal rate
 * under the null) whatever the distribution of the scores.
 *
 * **The interval** is every shift δ the same test would not reject on d_i − δ, with the same
 * sign vectors. For one vector the rejected shifts are solved in closed form (|A − δS| ≥ |D − nδ|
 * is a quadratic inequality, A = Σ s_i d_i, S = Σ s_i, D = Σ d_i), each vector contributes one
 * interval of shifts around the mean, and the bounds are order statistics of their ends. So p <
 * 1 − confidence exactly when the interval excludes 0, by construction, with no rounding between
 * the two. Zero differences never change A, only S, so they are drawn as a popcount of random
 * words: a run with few changed cases costs little however many cases it has.
 *
 * **Large runs.** Above `resamplingLimit(resamples)` non-zero differences the sign-flip distribution of
 * Σ s_i(d_i − δ) is normal to within far less than the resampling's error, with variance
 * Σ (d_i − δ)²: p = 2·P(Z > |D| / √Σd_i²), and the interval solves |D − nδ| ≤ z·√Σ(d_i − δ)²,
 * i.e. mean ± z·√(SS / (n(n − z²))) with SS the sum of squares about the mean. Still one test for
 * both, so still p < α exactly when 0 is outside (up to floating-point rounding at the boundary).
 *
 * **Edge cases.** No pairs or all differences 0: mean 0, interval [0, 0], p = 1. One pair: every
 * sign vector flips it onto itself, so p = 1 and the interval spans 0 and the difference. An
 * interval end no resample bounds is the most extreme difference (or 0), never infinite.
 */
export function signFlipTest(
  diffs: ArrayLike<number>,
  options: SignFlipOptions = {},
): SignFlipResult {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const confidence = options.confidence ?? 0.95;
  const seed = options.seed ?? DEFAULT_SEED;
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  }
  if (!(confidence > 0 && confidence < 1)) {
    throw new RangeError(`confidence must be between 0 and 1, got ${confidence}`);
  }
  const alpha = 1 - confidence;
  // The interval needs at least one resample inside its tail: p can only reach α with enough.
  if ((resamples + 1) * alpha < 1) {
    throw new RangeError(
      `${resamples} resamples cannot resolve a ${confidence * 100}% interval; use at least ${Math.ceil(1 / alpha) - 1}`,
    );
  }

  const n = diffs.length;
  let sum = 0;
  let nonZero = 0;
  let smallest = 0;
  let largest = 0;
  for (let i = 0; i < n; i++) {
    const value = diffs[i] ?? 0;
    if (!Number.isFinite(value)) throw new RangeError(`diffs[${i}] is not a finite number`);
    sum += value;
    if (value !== 0) nonZero++;
    if (value < smallest) smallest = value;
    if (value > largest) largest = value;
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

  if (nonZero > resamplingLimit(resamples)) {
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
  const { lows, highs, covering } = rejectedShifts(values, n - nonZero, sum, resamples, seed);
  // A shift δ is kept while at least `rank` resamples reject it: (1 + count)/(B + 1) ≥ α.
  const rank = Math.ceil(alpha * (resamples + 1) - 1);
  lows.sort();
  highs.sort();
  const low = lows[rank - 1] ?? -Infinity;
  const high = highs[resamples - rank] ?? Infinity;
  return {
    mean,
    low: Number.isFinite(low) ? low : Math.min(0, smallest),
    high: Number.isFinite(high) ? high : Math.max(0, largest),
    pValue: (1 + covering) / (resamples + 1),
    sd,
    method: 'resampled',
  };
}

/**
 * For each of `resamples` random sign vectors, the interval of shifts δ at which that vector's
 * statistic |Σ s_i(d_i − δ)| reaches the observed |Σ(d_i − δ)|, and how many of those intervals
 * hold 0 (the count behind p at δ = 0).
 *
 * (A − δS)² ≥ (D − nδ)² factors as (A − D + δ(n − S))·(A + D − δ(n + S)) ≥ 0; both factors are
 * equal at δ = D/n, so the set is the closed interval between their roots (D − A)/(n − S) and
 * (A + D)/(n + S), which always holds the mean. A vector of all + or all − signs reproduces the
 * data and rejects every shift: its interval is the whole line.
 */
function rejectedShifts(
  values: Float64Array,
  zeros: number,
  total: number,
  resamples: number,
  seed: number,
): { lows: Float64Array; highs: Float64Array; covering: number } {
  const count = values.length;
  const n = count + zeros;
  const next = mulberry32Words(seed);
  const lows = new Float64Array(resamples);
  const highs = new Float64Array(resamples);
  let covering = 0;
  for (let b = 0; b < resamples; b++) {
    let flipped = 0;
    let signs = 0;
    let word = 0;
    for (let i = 0; i < count; i++) {
      if ((i & 31) === 0) word = next();
      const value = values[i] ?? 0;
      if ((word & 1) === 1) {
        flipped += value;
        signs++;
      } else {
        flipped -= value;
        signs--;
      }
      word >>>= 1;
    }
    let plus = 0;
    for (let left = zeros; left > 0; left -= 32) {
      const bits = next();
      plus += popcount(left >= 32 ? bits : bits >>> (32 - left));
    }
    signs += 2 * plus - zeros;

    let low = -Infinity;
    let high = Infinity;
    if (signs !== n && signs !== -n) {
      const first = (total - flipped) / (n - signs);
      const second = (flipped + total) / (n + signs);
      low = Math.min(first, second);
      high = Math.max(first, second);
    }
    lows[b] = low;
    highs[b] = high;
    if (low <= 0 && high >= 0) covering++;
  }
  return { lows, highs, covering };
}

/** Set bits of a 32-bit word. */
function popcount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}
