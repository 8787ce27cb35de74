/**
 * The statistics behind `evals compare`: a seeded PRNG, a paired bootstrap of the mean
 * difference with a p-value that agrees with its interval, and an exact McNemar test. Pure and
 * deterministic: the same inputs and seed give the same numbers, bit for bit.
 *
 * The distribution functions the bootstrap needs (normal and Student t tails and quantiles) are
 * written out here rather than taken from a package: they are a few dozen lines of textbook
 * numerics (Lanczos log-gamma, continued fractions for the incomplete gamma and beta functions)
 * and the project takes no dependency for them.
 */

/** A deterministic source of uniform numbers in [0, 1). */
export type Random = () => number;

/**
 * Mulberry32 (Tommy Ettinger's 32-bit generator): one 32-bit state word, period 2^32, passes
 * gjrand and PractRand up to the sizes a bootstrap draws. Chosen because it is tiny, fast in
 * JavaScript (pure `Math.imul` and shifts, no BigInt) and gives the same stream on every engine,
 * which is what makes a comparison reproducible. Not for anything cryptographic.
 */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Options of `pairedBootstrap`. */
export interface BootstrapOptions {
  /** Resamples; 2000 by default. More narrows the Monte Carlo error of the bounds and p-value. */
  iterations?: number;
  /** PRNG seed; the same seed gives the same interval. */
  seed?: number;
  /** Coverage of the interval, in (0, 1); 0.95 by default. */
  confidence?: number;
}

/** The mean of paired differences with its confidence interval and two-sided p-value. */
export interface BootstrapResult {
  mean: number;
  low: number;
  high: number;
  /**
   * Two-sided, against "no difference". Below 1 − confidence exactly when [low, high] excludes 0
   * (from 5 pairs on; see `pairedBootstrap`).
   */
  pValue: number;
}

/** Resamples drawn by `pairedBootstrap` unless told otherwise. */
export const DEFAULT_BOOTSTRAP_ITERATIONS = 2000;
/** Seed used by `pairedBootstrap` unless told otherwise. */
export const DEFAULT_BOOTSTRAP_SEED = 0x5eed;

/**
 * Confidence interval of the mean of paired differences (`head − base` per case) by the
 * bootstrap, with a two-sided p-value read off the same resamples.
 *
 * **Interval: the expanded percentile bootstrap** (Hesterberg, "What Teachers Should Know About
 * the Bootstrap", The American Statistician 69(4), 2015). The plain percentile interval is too
 * narrow in small samples: a resampled mean varies by (n−1)/n of the true variance and the normal
 * quantile ignores that the spread itself is estimated, so at n = 10 a "95%" interval misses
 * about 10% of the time. The expanded interval reads the percentiles at α'/2 and 1 − α'/2
 * instead, with Φ⁻¹(α'/2) = −√(n/(n−1)) · t(1 − α/2, n−1), which restores the nominal coverage
 * for normal data while keeping what the bootstrap is for: the skew of the real distribution
 * (scores near 0 or 1, pass/fail evaluators). For large n it is the plain percentile interval.
 *
 * **p-value: the inverted interval.** p is the smallest α at which the expanded (1 − α) interval
 * excludes 0. With q the share of resampled means on the far side of 0 (the smaller of ≤ 0 and
 * ≥ 0, ties counted on both sides), p = 2 · P(T(n−1) > Φ⁻¹(1 − q) · √((n−1)/n)). So the label a
 * caller derives from the interval and the p-value can never disagree, and for a near-normal
 * bootstrap distribution p is the paired t-test's p-value. A sign-flip permutation test would
 * be exact under exchangeability, but it measures spread around 0 rather than around the mean,
 * so near the boundary it would call a change significant that the interval does not, and the
 * report would contradict itself. The bootstrap resolves tails down to about 1/iterations: when
 * no resample crosses 0, q is taken as half a resample. (With 4 pairs or fewer that floor can put
 * p above α while every resample sits on one side of 0; no test means much there anyway.)
 *
 * **Edge cases.** No pairs: mean 0, interval [0, 0], p = 1. One pair says nothing about spread:
 * the interval is widened to include 0 and p = 1. All differences 0: [0, 0], p = 1. All equal and
 * non-zero: [d, d] with the smallest p the resamples resolve; the bootstrap cannot see
 * variability the sample does not show, so callers should require enough pairs (compare asks
 * for 10) before reading anything into an interval.
 *
 * Indexes are drawn as ⌊u·n⌋ from 32-bit uniforms: the bias is below n / 2³², nothing at these
 * sizes. 10,000 pairs × 2,000 resamples take well under a second.
 */
export function pairedBootstrap(
  diffs: readonly number[],
  options: BootstrapOptions = {},
): BootstrapResult {
  const iterations = options.iterations ?? DEFAULT_BOOTSTRAP_ITERATIONS;
  const confidence = options.confidence ?? 0.95;
  const seed = options.seed ?? DEFAULT_BOOTSTRAP_SEED;
  if (!Number.isInteger(iterations) || iterations < 1) {
    throw new RangeError(`iterations must be a positive integer, got ${iterations}`);
  }
  if (!(confidence > 0 && confidence < 1)) {
    throw new RangeError(`confidence must be between 0 and 1, got ${confidence}`);
  }

  const n = diffs.length;
  if (n === 0) return { mean: 0, low: 0, high: 0, pValue: 1 };
  const data = Float64Array.from(diffs);
  let sum = 0;
  let allZero = true;
  for (let i = 0; i < n; i++) {
    const value = data[i] ?? 0;
    if (!Number.isFinite(value)) throw new RangeError(`diffs[${i}] is not a finite number`);
    sum += value;
    if (value !== 0) allZero = false;
  }
  const mean = sum / n;
  if (allZero) return { mean: 0, low: 0, high: 0, pValue: 1 };
  if (n === 1) return { mean, low: Math.min(0, mean), high: Math.max(0, mean), pValue: 1 };

  const means = resampleMeans(data, iterations, seed);
  means.sort();

  const alpha = 1 - confidence;
  const df = n - 1;
  const shrink = Math.sqrt(df / n);
  const lowerTail = normalUpperTail(studentQuantileUpper(alpha / 2, df) / shrink);
  const lowIndex = Math.min(iterations - 1, Math.floor(lowerTail * iterations));
  const low = means[lowIndex] ?? 0;
  const high = means[iterations - 1 - lowIndex] ?? 0;

  let atOrBelow = 0;
  let atOrAbove = 0;
  for (let i = 0; i < iterations; i++) {
    const value = means[i] ?? 0;
    if (value <= 0) atOrBelow++;
    if (value >= 0) atOrAbove++;
  }
  const farSide = Math.max(0.5, Math.min(atOrBelow, atOrAbove)) / iterations;
  const pValue =
    farSide >= 0.5
      ? 1
      : Math.min(1, 2 * studentUpperTail(normalQuantileUpper(farSide) * shrink, df));
  return { mean, low, high, pValue };
}

/** The mean of each of `iterations` resamples (with replacement) of `data`. */
function resampleMeans(data: Float64Array, iterations: number, seed: number): Float64Array {
  const n = data.length;
  const means = new Float64Array(iterations);
  // mulberry32 inlined: this loop is the whole cost (iterations × n draws), and keeping the
  // state in a local lets V8 keep it in a register. Same stream as `mulberry32(seed)`.
  let state = seed >>> 0;
  for (let b = 0; b < iterations; b++) {
    let total = 0;
    for (let i = 0; i < n; i++) {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = Math.imul(state ^ (state >>> 15), state | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const u = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      total += data[(u * n) | 0] ?? 0;
    }
    means[b] = total / n;
  }
  return means;
}

/**
 * Two-sided exact McNemar test: the p-value of `b` pass→fail against `c` fail→pass discordant
 * pairs, p = min(1, 2 · P[X ≤ min(b, c)]) with X ~ Binomial(b + c, ½). Concordant pairs carry
 * no information about a change, so only b and c enter. 1 when there are no discordant pairs.
 *
 * The tail is summed in log space, from the largest term down (each term is the previous one
 * times k / (n − k + 1)), so 2^−n never underflows on its own and b + c of 100,000 or more stays
 * accurate.
 */
export function mcnemarExact(b: number, c: number): number {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) {
    throw new RangeError(`discordant counts must be non-negative integers, got ${b} and ${c}`);
  }
  const n = b + c;
  const k = Math.min(b, c);
  if (n === 0 || 2 * k >= n) return 1;
  // log P[X = k] = log C(n, k) − n log 2
  const logTop = logChoose(n, k) - n * Math.LN2;
  let ratio = 1;
  let total = 1;
  for (let j = k; j > 0; j--) {
    ratio *= j / (n - j + 1);
    total += ratio;
    if (ratio < total * 1e-17) break;
  }
  return Math.min(1, 2 * Math.exp(logTop + Math.log(total)));
}

/** log C(n, k), summed term by term: exact enough for n in the millions, no gamma function needed. */
function logChoose(n: number, k: number): number {
  let total = 0;
  for (let i = 1; i <= k; i++) total += Math.log((n - k + i) / i);
  return total;
}

// ---------------------------------------------------------------------------------------------
// Distribution functions. Upper tails throughout, so small probabilities keep their precision.
// ---------------------------------------------------------------------------------------------

const EPSILON = 1e-15;
const TINY = 1e-300;
const MAX_STEPS = 10_000;

/** P(Z > x) for a standard normal Z: erfc(x/√2)/2, through the incomplete gamma function. */
export function normalUpperTail(x: number): number {
  if (x === Infinity) return 0;
  if (x === -Infinity) return 1;
  const half = 0.5 * gammaUpperRegularized(0.5, (x * x) / 2);
  return x >= 0 ? half : 1 - half;
}

/** P(T > t) for Student's t with `df` degrees of freedom, through the incomplete beta function. */
export function studentUpperTail(t: number, df: number): number {
  if (t === Infinity) return 0;
  if (t === -Infinity) return 1;
  const half = 0.5 * betaRegularized(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? half : 1 - half;
}

/** The x with P(Z > x) = p, for p in (0, 1). */
function normalQuantileUpper(p: number): number {
  return invertDecreasing((x) => normalUpperTail(x), p);
}

/** The t with P(T > t) = p for Student's t with `df` degrees of freedom, for p in (0, 1). */
function studentQuantileUpper(p: number, df: number): number {
  return invertDecreasing((t) => studentUpperTail(t, df), p);
}

/**
 * Solves f(x) = target for a decreasing tail function by bisection. Bisection rather than Newton:
 * it is called a couple of times per interval, cannot diverge, and ends at the last representable
 * bracket, so results are exactly reproducible.
 */
function invertDecreasing(f: (x: number) => number, target: number): number {
  let low = -1;
  let high = 1;
  while (f(low) < target) low *= 2;
  while (f(high) > target) high *= 2;
  for (let step = 0; step < 200; step++) {
    const mid = (low + high) / 2;
    if (mid === low || mid === high) break;
    if (f(mid) > target) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

/** log Γ(x) for x > 0: the Lanczos approximation (g = 7, 9 terms), ~15 significant digits. */
function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let series = LANCZOS[0] ?? 0;
  for (let i = 1; i < LANCZOS.length; i++) series += (LANCZOS[i] ?? 0) / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(series);
}

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
  1.5056327351493116e-7,
];

/** Q(a, x) = Γ(a, x)/Γ(a): the series below a + 1, the continued fraction above (Numerical Recipes). */
function gammaUpperRegularized(a: number, x: number): number {
  if (x <= 0) return 1;
  const logPrefix = -x + a * Math.log(x) - logGamma(a);
  if (x < a + 1) {
    let term = 1 / a;
    let total = term;
    for (let n = 1; n < MAX_STEPS; n++) {
      term *= x / (a + n);
      total += term;
      if (Math.abs(term) < Math.abs(total) * EPSILON) break;
    }
    return 1 - total * Math.exp(logPrefix);
  }
  // Lentz's method for the continued fraction of Γ(a, x).
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_STEPS; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPSILON) break;
  }
  return Math.exp(logPrefix) * h;
}

/** I_x(a, b), the regularized incomplete beta function, by its continued fraction (Numerical Recipes). */
function betaRegularized(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const logPrefix =
    logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  // The fraction converges fast only below (a + 1)/(a + b + 2); above, use I_x(a,b) = 1 − I_{1−x}(b,a).
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(logPrefix) * betaFraction(x, a, b)) / a;
  return 1 - (Math.exp(logPrefix) * betaFraction(1 - x, b, a)) / b;
}

function betaFraction(x: number, a: number, b: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m < MAX_STEPS; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPSILON) break;
  }
  return h;
}
