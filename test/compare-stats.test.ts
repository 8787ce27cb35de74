import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { adjustFamily } from '../src/compare/family.ts';
import { normalQuantileUpper, normalUpperTail } from '../src/compare/normal.ts';
import { fewestDetectable, rowPower } from '../src/compare/power.ts';
import {
  EXACT_LIMIT,
  mulberry32,
  RESAMPLING_LIMIT,
  resamplingLimit,
  signFlipTest,
} from '../src/compare/sign-flip.ts';

/** Standard normal draws from a seeded stream (Box–Muller), so every test sees the same data. */
function normals(seed: number): () => number {
  const random = mulberry32(seed);
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

function assertClose(actual: number, expected: number, tolerance: number, what = ''): void {
  assert.ok(
    Math.abs(actual - expected) <= tolerance,
    `${what} expected ${expected} ± ${tolerance}, got ${actual}`,
  );
}

/** The exact sign-flip p-value, every one of the 2^n sign vectors enumerated: the reference. */
function exactSignFlip(diffs: readonly number[]): number {
  const n = diffs.length;
  const observed = Math.abs(diffs.reduce((a, b) => a + b, 0));
  let atLeast = 0;
  for (let mask = 0; mask < 2 ** n; mask++) {
    let total = 0;
    for (let i = 0; i < n; i++) total += (mask >> i) & 1 ? (diffs[i] ?? 0) : -(diffs[i] ?? 0);
    if (Math.abs(total) >= observed - 1e-12) atLeast++;
  }
  return atLeast / 2 ** n;
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

describe('normal distribution', () => {
  it('matches published tail values and inverts them', () => {
    assertClose(normalUpperTail(1.959963984540054), 0.025, 1e-12, 'Φ upper at 1.96');
    assertClose(normalUpperTail(-1), 0.8413447460685429, 1e-12, 'Φ upper at −1');
    assertClose(normalUpperTail(5), 2.866515718791939e-7, 1e-17, 'Φ upper at 5');
    assertClose(normalQuantileUpper(0.025), 1.959963984540054, 1e-9, 'z(0.025)');
    assertClose(normalQuantileUpper(0.2), 0.8416212335729143, 1e-9, 'z(0.2)');
    assertClose(normalQuantileUpper(0.05 / 48), 3.0780881, 1e-6, 'z(0.05/48)');
  });
});

describe('signFlipTest', () => {
  it('handles no pairs, one pair and all-zero differences', () => {
    const none = { mean: 0, low: 0, high: 0, pValue: 1, sd: 0, method: 'resampled' };
    assert.deepEqual(signFlipTest([]), none);
    assert.deepEqual(signFlipTest(new Array<number>(50).fill(0)), none);
    // One pair: every sign vector gives ±d, as extreme as the data, so p = 1 and 0 is inside.
    const one = signFlipTest([0.3]);
    assert.equal(one.pValue, 1);
    assert.ok(one.low <= 0 && one.high >= 0.3, JSON.stringify(one));
  });

  it('matches the exact test (all 2^n sign vectors) within its Monte Carlo error', () => {
    const gauss = normals(11);
    for (let k = 0; k < 12; k++) {
      const diffs = Array.from({ length: 12 }, () => 0.1 * k * 0.1 + 0.2 * gauss());
      const exact = exactSignFlip(diffs);
      const { pValue } = signFlipTest(diffs, { seed: k });
      // 4,999 draws: standard error √(p(1 − p)/5000) ≤ 0.0071; 4 of them, plus the +1.
      assertClose(pValue, exact, 0.03, `case ${k}`);
    }
  });

  it('gives the exact McNemar p-value on pass/fail changes (±1 and 0)', () => {
    // 1 pass→fail, 9 fail→pass among 40 cases: 2 · (C(10,0) + C(10,1)) / 2^10 = 22/1024.
    const diffs = [-1, ...new Array<number>(9).fill(1), ...new Array<number>(30).fill(0)];
    assertClose(signFlipTest(diffs).pValue, 22 / 1024, 0.006, 'McNemar');
    // 0 and 5: 2/32.
    const five = [...new Array<number>(5).fill(-1), ...new Array<number>(20).fill(0)];
    assertClose(signFlipTest(five).pValue, 2 / 32, 0.01, 'McNemar 0 vs 5');
  });

  it('is deterministic for a seed, and the seed matters', () => {
    const gauss = normals(1);
    const diffs = Array.from({ length: 60 }, () => 0.05 + 0.2 * gauss());
    assert.deepEqual(signFlipTest(diffs, { seed: 9 }), signFlipTest(diffs, { seed: 9 }));
    assert.notDeepEqual(signFlipTest(diffs, { seed: 9 }), signFlipTest(diffs, { seed: 10 }));
  });

  it('finds a known shift with an interval close to the paired t interval', () => {
    const gauss = normals(2);
    const n = 200;
    const diffs = Array.from({ length: n }, () => 0.15 + 0.1 * gauss());
    const result = signFlipTest(diffs);
    assert.ok(result.low > 0 && result.pValue < 0.001, JSON.stringify(result));
    const mean = diffs.reduce((a, b) => a + b, 0) / n;
    const half = 1.971956544249395 * (result.sd / Math.sqrt(n)); // t(0.975, 199)
    assertClose(result.mean, mean, 1e-12, 'mean');
    assertClose(result.low, mean - half, 0.1 * half, 'low');
    assertClose(result.high, mean + half, 0.1 * half, 'high');
  });

  it('says p < 0.05 exactly when the 95% interval excludes 0, exact, resampled and normal', () => {
    // Means placed at the edge of significance, where two methods could disagree.
    const gauss = normals(4);
    for (let seed = 0; seed < 300; seed++) {
      const limit = resamplingLimit(999);
      const n = seed % 3 === 0 ? limit + 50 + seed : 10 + (seed % 50);
      const diffs = Array.from({ length: n }, () => 0.2 * gauss() + (0.4 * 2) / Math.sqrt(n));
      const result = signFlipTest(diffs, { seed, resamples: 999 });
      const method = n > limit ? 'normal' : n <= EXACT_LIMIT ? 'exact' : 'resampled';
      assert.equal(result.method, method);
      const excludesZero = result.low > 0 || result.high < 0;
      assert.equal(excludesZero, result.pValue < 0.05, `seed ${seed}: ${JSON.stringify(result)}`);
    }
  });

  it('keeps about 5% false positives at 10 and 30 pairs', (t) => {
    const gauss = normals(5);
    for (const n of [10, 30]) {
      let flagged = 0;
      const samples = 400;
      for (let seed = 0; seed < samples; seed++) {
        const diffs = Array.from({ length: n }, () => 0.2 * gauss());
        if (signFlipTest(diffs, { seed, resamples: 999 }).pValue < 0.05) flagged++;
      }
      t.diagnostic(`n = ${n}: ${flagged}/${samples} null samples flagged`);
      // The test is exact: at most 5% in expectation; sampling error allows up to ~8%.
      assert.ok(flagged / samples <= 0.08, `n = ${n}: ${flagged}/${samples}`);
    }
  });

  it('resamples up to a bounded amount of work, then uses the normal approximation', () => {
    assert.equal(RESAMPLING_LIMIT, 5001);
    assert.equal(resamplingLimit(39_999), 625);
    const changed = Float64Array.from({ length: 700 }, (_, i) => (i % 3) - 0.9);
    assert.equal(signFlipTest(changed).method, 'resampled');
    assert.equal(signFlipTest(changed, { resamples: 39_999 }).method, 'normal');
  });

  it('handles 100,000 cases by the normal approximation, whose p is the z-test on Σd²', () => {
    const gauss = normals(6);
    const diffs = Float64Array.from({ length: 100_000 }, () => 0.003 + 0.3 * gauss());
    const result = signFlipTest(diffs);
    assert.equal(result.method, 'normal');
    assert.ok(result.low < result.mean && result.mean < result.high);
    let sum = 0;
    let squares = 0;
    for (const d of diffs) {
      sum += d;
      squares += d * d;
    }
    assertClose(result.pValue, 2 * normalUpperTail(Math.abs(sum) / Math.sqrt(squares)), 1e-12);
  });

  it('refuses nonsense options and values', () => {
    assert.throws(() => signFlipTest([1, 2], { resamples: 0 }), RangeError);
    assert.throws(() => signFlipTest([1, 2], { resamples: 10 }), /cannot resolve/);
    assert.throws(() => signFlipTest([1, 2], { confidence: 1 }), RangeError);
    assert.throws(() => signFlipTest([1, Number.NaN]), RangeError);
  });
});

describe('adjustFamily (Holm and Benjamini–Hochberg)', () => {
  it('matches hand-computed adjustments', () => {
    // Sorted: 0.01, 0.02, 0.03, 0.5. Holm: 4·0.01, max(3·0.02, ·), max(2·0.03, ·), max(0.5, ·).
    // BH: 0.01·4/1, 0.02·4/2, 0.03·4/3, 0.5·4/4, then running minimum from the top.
    const { holm, q } = adjustFamily([0.03, 0.01, 0.5, 0.02]);
    const expectedHolm = [0.06, 0.04, 0.5, 0.06];
    const expectedQ = [0.04, 0.04, 0.5, 0.04];
    for (let i = 0; i < 4; i++) {
      assertClose(holm[i] ?? -1, expectedHolm[i] ?? 0, 1e-12, `holm ${i}`);
      assertClose(q[i] ?? -1, expectedQ[i] ?? 0, 1e-12, `q ${i}`);
    }
    assert.deepEqual(adjustFamily([0.9, 0.8]).holm, [1, 1]);
    assert.deepEqual(adjustFamily([]), { holm: [], q: [] });
  });
});

describe('rowPower', () => {
  it('gives (z(α/2F) + z(0.8)) standard errors, and the cases to reach the target', () => {
    // F = 1: (1.959964 + 0.841621) × 0.02 = 0.056032.
    const alone = rowPower({
      standardError: 0.02,
      cases: 100,
      family: 1,
      alpha: 0.05,
      target: 0.1,
      bounded: false,
    });
    assertClose(alone.detectable, 0.0560317, 1e-6);
    assert.deepEqual([alone.underpowered, alone.casesNeeded], [false, null]);

    // F = 24: z(0.05/48) = 3.078088, so 3.919709 × 0.04 = 0.156788 > 0.1; n = 100 · 1.56788² → 246.
    const many = rowPower({
      standardError: 0.04,
      cases: 100,
      family: 24,
      alpha: 0.05,
      target: 0.1,
      bounded: false,
    });
    assertClose(many.detectable, 0.1567884, 1e-6);
    assert.equal(many.underpowered, true);
    assert.equal(many.casesNeeded, 246);
  });

  it('knows the fewest cases a sign-flip test needs to block anything', () => {
    // 2 / 2^k < 0.05 / F: F = 1 needs k = 6 (2/64 < 0.05); F = 24 needs k = 10 (2/1024 < 0.00208).
    assert.equal(fewestDetectable(0.05, 1), 6);
    assert.equal(fewestDetectable(0.05, 24), 10);
    const tiny = rowPower({
      standardError: 0,
      cases: 20,
      family: 24,
      alpha: 0.05,
      target: 0.1,
      bounded: true,
    });
    // No noise at all: 10 of 20 cases must move, a change of 0.5; 0.1 takes 10 / 0.1 = 100 cases.
    assertClose(tiny.detectable, 10 / 20, 1e-12);
    assert.equal(tiny.casesNeeded, 100);
  });
});
