/**
 * The seeded draws and binomial tails behind bench/stats-model.ts: stream seeds, normal, Gamma
 * and Beta draws, and how surprising a count of alarms is. Kept apart so the model file holds
 * only the simulated pull request and what its readers see.
 */
import type { Random } from '../src/compare/sign-flip.ts';

/** A 32-bit seed from three integers (a murmur3-style finalizer), so streams do not overlap. */
export function mix(seed: number, stream: number, index: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(stream + 1, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) ^ Math.imul(index + 1, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * The upper end of the one-sided 95% Clopper–Pearson interval of a rate seen `k` times in `n`,
 * by bisection on the binomial tail: the rate the data still allow.
 */
export function upper95(k: number, n: number): number {
  if (k >= n) return 1;
  let low = k / n;
  let high = 1;
  for (let step = 0; step < 60; step++) {
    const mid = (low + high) / 2;
    if (binomialCdf(k, n, mid) > 0.05) low = mid;
    else high = mid;
  }
  return high;
}

function binomialCdf(k: number, n: number, p: number): number {
  let term = Math.pow(1 - p, n);
  let sum = term;
  for (let i = 1; i <= k; i++) {
    term *= ((n - i + 1) / i) * (p / (1 - p));
    sum += term;
  }
  return sum;
}

/** Standard normal draws (Box–Muller) from a seeded stream. */
export function normals(random: Random): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** A Beta(a, b) draw as X / (X + Y) of two Gamma draws (Marsaglia–Tsang, boosted below 1). */
export function betaDraw(a: number, b: number, random: Random): number {
  const gauss = normals(random);
  const x = gammaDraw(a, random, gauss);
  const y = gammaDraw(b, random, gauss);
  return x + y === 0 ? 0.5 : x / (x + y);
}

function gammaDraw(shape: number, random: Random, gauss: () => number): number {
  if (shape < 1) return gammaDraw(shape + 1, random, gauss) * Math.pow(1 - random(), 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (let attempt = 0; attempt < 1000; attempt++) {
    const z = gauss();
    const v = Math.pow(1 + c * z, 3);
    if (v <= 0) continue;
    const u = 1 - random();
    if (Math.log(u) < 0.5 * z * z + d - d * v + d * Math.log(v)) return d * v;
  }
  return d;
}

/** P(X ≥ k) for X ~ Binomial(n, p): how surprising `k` alarms in `n` are at a true rate `p`. */
export function tailAtLeast(k: number, n: number, p: number): number {
  return k <= 0 ? 1 : 1 - binomialCdf(k - 1, n, p);
}
