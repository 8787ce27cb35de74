import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  mcnemarExact,
  mulberry32,
  normalUpperTail,
  pairedBootstrap,
  studentUpperTail,
} from '../src/compare/stats.ts';

/** Standard normal draws from a seeded stream (Box–Muller), so every test sees the same data. */
function normals(seed: number): () => number {
  const random = mulberry32(seed);
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** P[X ≤ k] for X ~ Binomial(n, ½), exactly, with BigInt: the reference for the log-space sum. */
function exactMcNemar(b: number, c: number): number {
  const n = BigInt(b + c);
  const k = BigInt(Math.min(b, c));
  let coefficient = 1n;
  let total = 0n;
  for (let i = 0n; i <= k; i++) {
    if (i > 0n) coefficient = (coefficient * (n - i + 1n)) / i;
    total += coefficient;
  }
  // 2 · total / 2^n, kept exact down to 1e-18 before the conversion to a double.
  const scaled = (2n * total * 10n ** 18n) / 2n ** n;
  return Math.min(1, Number(scaled) / 1e18);
}

function assertClose(actual: number, expected: number, tolerance: number, what = ''): void {
  assert.ok(
    Math.abs(actual - expected) <= tolerance,
    `${what} expected ${expected} ± ${tolerance}, got ${actual}`,
  );
}

describe('mulberry32', () => {
  it('is deterministic per seed and uniform on [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const c = mulberry32(43);
    const first = Array.from({ length: 5 }, a);
    assert.deepEqual(first, Array.from({ length: 5 }, b));
    assert.notDeepEqual(first, Array.from({ length: 5 }, c));

    const random = mulberry32(7);
    let sum = 0;
    for (let i = 0; i < 100_000; i++) {
      const u = random();
      assert.ok(u >= 0 && u < 1);
      sum += u;
    }
    assertClose(sum / 100_000, 0.5, 0.005, 'mean');
  });
});

describe('distribution tails', () => {
  it('match published values', () => {
    assertClose(normalUpperTail(1.959963984540054), 0.025, 1e-12, 'Φ upper at 1.96');
    assertClose(normalUpperTail(-1), 0.8413447460685429, 1e-12, 'Φ upper at −1');
    assertClose(normalUpperTail(5), 2.866515718791939e-7, 1e-17, 'Φ upper at 5');
    assertClose(studentUpperTail(12.706204736174707, 1), 0.025, 1e-10, 't(1)');
    assertClose(studentUpperTail(2.262157162740992, 9), 0.025, 1e-9, 't(9)');
    assertClose(studentUpperTail(0, 30), 0.5, 1e-12, 't(30) at 0');
    assertClose(studentUpperTail(-2.042272456301238, 30), 0.975, 1e-9, 't(30) lower');
  });
});

describe('pairedBootstrap', () => {
  it('handles no pairs, one pair and all-zero differences', () => {
    assert.deepEqual(pairedBootstrap([]), { mean: 0, low: 0, high: 0, pValue: 1 });
    // One pair says nothing about spread: the interval includes 0 and p = 1.
    assert.deepEqual(pairedBootstrap([0.3]), { mean: 0.3, low: 0, high: 0.3, pValue: 1 });
    assert.deepEqual(pairedBootstrap([-0.2]), { mean: -0.2, low: -0.2, high: 0, pValue: 1 });
    assert.deepEqual(pairedBootstrap(new Array<number>(50).fill(0)), {
      mean: 0,
      low: 0,
      high: 0,
      pValue: 1,
    });
  });

  it('gives a zero-width interval for equal non-zero differences', () => {
    const result = pairedBootstrap(new Array<number>(20).fill(0.25));
    assertClose(result.mean, 0.25, 1e-12);
    assertClose(result.low, 0.25, 1e-12);
    assertClose(result.high, 0.25, 1e-12);
    // No resample crosses 0: p is as small as 2,000 resamples resolve at 20 pairs.
    assert.ok(result.pValue < 0.01, `p = ${result.pValue}`);
  });

  it('is deterministic for a seed, and the seed matters', () => {
    const gauss = normals(1);
    const diffs = Array.from({ length: 60 }, () => 0.05 + 0.2 * gauss());
    assert.deepEqual(pairedBootstrap(diffs, { seed: 9 }), pairedBootstrap(diffs, { seed: 9 }));
    assert.notDeepEqual(pairedBootstrap(diffs, { seed: 9 }), pairedBootstrap(diffs, { seed: 10 }));
  });

  it('finds a known shift and agrees with the paired t interval on normal data', () => {
    const gauss = normals(2);
    const n = 200;
    const diffs = Array.from({ length: n }, () => 0.15 + 0.1 * gauss());
    const result = pairedBootstrap(diffs);
    assert.ok(result.low > 0, `low ${result.low}`);
    assert.ok(result.low < 0.15 && result.high > 0.15, `[${result.low}, ${result.high}]`);
    assert.ok(result.pValue < 0.001);

    const mean = diffs.reduce((a, b) => a + b, 0) / n;
    const sd = Math.sqrt(diffs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
    const half = 1.971956544249395 * (sd / Math.sqrt(n)); // t(0.975, 199)
    assertClose(result.mean, mean, 1e-12, 'mean');
    // Monte Carlo error of 2,000 resamples: about 5% of the half-width.
    assertClose(result.low, mean - half, 0.1 * half, 'low');
    assertClose(result.high, mean + half, 0.1 * half, 'high');
  });

  it('gives a p-value close to the paired t-test for normal data', () => {
    const gauss = normals(3);
    const n = 30;
    const diffs = Array.from({ length: n }, () => 0.07 + 0.2 * gauss());
    const mean = diffs.reduce((a, b) => a + b, 0) / n;
    const sd = Math.sqrt(diffs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
    const tTest = 2 * studentUpperTail(Math.abs(mean) / (sd / Math.sqrt(n)), n - 1);
    const { pValue } = pairedBootstrap(diffs);
    assert.ok(Math.abs(pValue - tTest) < 0.25 * tTest + 0.01, `bootstrap ${pValue}, t ${tTest}`);
  });

  it('says p < 0.05 exactly when the 95% interval excludes 0', () => {
    // Means placed near the edge of significance, where the two could disagree.
    const gauss = normals(4);
    for (let seed = 0; seed < 300; seed++) {
      const n = 10 + (seed % 50);
      const diffs = Array.from({ length: n }, () => 0.2 * gauss() + (0.4 * 2) / Math.sqrt(n));
      const result = pairedBootstrap(diffs, { seed, iterations: 500 });
      const excludesZero = result.low > 0 || result.high < 0;
      assert.equal(excludesZero, result.pValue < 0.05, `seed ${seed}: ${JSON.stringify(result)}`);
    }
  });

  it('keeps about 5% false positives at 10 and 20 pairs (the expanded interval)', (t) => {
    const gauss = normals(5);
    for (const n of [10, 20]) {
      let flagged = 0;
      const trials = 400;
      for (let seed = 0; seed < trials; seed++) {
        const diffs = Array.from({ length: n }, () => 0.2 * gauss());
        const result = pairedBootstrap(diffs, { seed, iterations: 1000 });
        if (result.low > 0 || result.high < 0) flagged++;
      }
      t.diagnostic(`n = ${n}: ${flagged}/${trials} null samples flagged`);
      // A plain percentile interval flags about 10% at n = 10; sampling error allows up to ~8%.
      assert.ok(flagged / trials <= 0.085, `n = ${n}: ${flagged}/${trials}`);
    }
  });

  it('resamples 10,000 pairs into an interval around the mean', () => {
    const gauss = normals(6);
    const diffs = Array.from({ length: 10_000 }, () => 0.01 + 0.3 * gauss());
    const result = pairedBootstrap(diffs);
    assert.ok(result.low < result.mean && result.mean < result.high);
  });

  it('refuses nonsense options and values', () => {
    assert.throws(() => pairedBootstrap([1, 2], { iterations: 0 }), RangeError);
    assert.throws(() => pairedBootstrap([1, 2], { confidence: 1 }), RangeError);
    assert.throws(() => pairedBootstrap([1, Number.NaN]), RangeError);
  });
});

describe('mcnemarExact', () => {
  it('matches hand-computed exact binomial values', () => {
    // b = 0, c = 5: 2 · (½)^5
    assert.equal(mcnemarExact(0, 5), 2 / 32);
    assert.equal(mcnemarExact(5, 0), 0.0625);
    // b = 1, c = 9: 2 · (C(10,0) + C(10,1)) / 2^10 = 22/1024
    assertClose(mcnemarExact(1, 9), 0.021484375, 1e-15);
    // b = c: the tail is at least ½, so p = 1
    assert.equal(mcnemarExact(3, 3), 1);
    // b = 10, c = 20: 2 · Σ_{i ≤ 10} C(30, i) / 2^30 = 106018204 / 1073741824
    assertClose(mcnemarExact(10, 20), 106018204 / 1073741824, 1e-15);
    assertClose(mcnemarExact(10, 20), 0.098737146705389, 1e-14);
    // b = 2, c = 8: 2 · (1 + 10 + 45) / 1024
    assertClose(mcnemarExact(2, 8), 112 / 1024, 1e-15);
    assert.equal(mcnemarExact(0, 0), 1);
    assert.equal(mcnemarExact(0, 1), 1);
  });

  it('agrees with exact BigInt arithmetic', () => {
    for (const [b, c] of [
      [0, 12],
      [4, 17],
      [25, 40],
      [60, 100],
      [300, 260],
      [480, 520],
    ] as const) {
      const expected = exactMcNemar(b, c);
      assertClose(mcnemarExact(b, c), expected, 1e-12 + 1e-10 * expected, `b=${b} c=${c}`);
      assert.equal(mcnemarExact(b, c), mcnemarExact(c, b));
    }
  });

  it('stays finite and accurate at 100,000 discordant pairs', () => {
    // Normal approximation with continuity correction: z = (|b − c| − 1)/√(b + c)
    const p = mcnemarExact(49_700, 50_300);
    const z = (600 - 1) / Math.sqrt(100_000);
    assertClose(p, 2 * normalUpperTail(z), 2e-4, 'near-normal tail');
    assert.ok(mcnemarExact(49_000, 51_000) < 1e-9);
    assert.ok(mcnemarExact(49_000, 51_000) > 0);
    assert.equal(mcnemarExact(50_000, 50_000), 1);
    const tiny = mcnemarExact(40_000, 60_000);
    assert.ok(Number.isFinite(tiny) && tiny >= 0);
  });

  it('refuses counts that are not whole numbers', () => {
    assert.throws(() => mcnemarExact(-1, 3), RangeError);
    assert.throws(() => mcnemarExact(1.5, 3), RangeError);
  });
});
