/**
 * The standard normal distribution's upper tail and its inverse: all the distribution theory the
 * comparison needs (the sign-flip test's approximation for large runs, power, and the κ rows).
 *
 * Written out rather than taken from a package: a few dozen lines of textbook numerics (Lanczos
 * log-gamma, the incomplete gamma function by series and continued fraction), and the project
 * takes no dependency for them.
 */

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

/**
 * The x with P(Z > x) = p, for p in (0, 1). By bisection rather than Newton: it is called a few
 * times per comparison, cannot diverge, and ends at the last representable bracket, so results
 * are exactly reproducible.
 */
export function normalQuantileUpper(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`p must be between 0 and 1, got ${p}`);
  let low = -1;
  let high = 1;
  while (normalUpperTail(low) < p) low *= 2;
  while (normalUpperTail(high) > p) high *= 2;
  for (let step = 0; step < 200; step++) {
    const mid = (low + high) / 2;
    if (mid === low || mid === high) break;
    if (normalUpperTail(mid) > p) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

/**
 * The distribution of the plus signs among `trials` fair coin flips (the zero differences of a
 * sign-flip test): entry k is P(fewer than k plus signs), k = 0 … trials + 1, normalised so the
 * last is exactly 1. Built by the ratio C(t, k + 1) / C(t, k) in logarithms, which neither
 * overflows nor loses the middle of the distribution for 100,000 flips.
 */
export function halfBinomialBelow(trials: number): Float64Array {
  const below = new Float64Array(trials + 2);
  let log = -trials * Math.LN2;
  for (let k = 0; k <= trials; k++) {
    below[k + 1] = (below[k] ?? 0) + Math.exp(log);
    log += Math.log((trials - k) / (k + 1));
  }
  const total = below[trials + 1] ?? 1;
  for (let k = 0; k < below.length; k++) below[k] = (below[k] ?? 0) / total;
  return below;
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
