/**
 * The sign-flip test against QA round 3 (sections 2, 11 and 21): its p-value and interval do not
 * depend on the units of the scores (ties in floating point), an end that is 0 in the reals is
 * exactly 0, p = 0.05 and the interval agree at the boundary, small samples get the exact p, and
 * an end no sign vector bounds is not pinned at 0. End to end, steps of 1/3 (what `trials: 3`
 * gives) no longer turn 41 falls and 25 rises out of 300 into a blocking regression.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { labelOf } from '../src/compare/row-tests.ts';
import {
  EXACT_LIMIT,
  mulberry32,
  signFlipTest,
  significanceLevel,
} from '../src/compare/sign-flip.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

/** `down` cases fall by `step`, `up` rise by it, the rest of `n` stay: QA's repro. */
function changes(down: number, up: number, step: number, n = 300): number[] {
  return [
    ...new Array<number>(down).fill(-step),
    ...new Array<number>(up).fill(step),
    ...new Array<number>(n - down - up).fill(0),
  ];
}

/** Per-case means of 3 trials, as the engine makes them: (a + b + c) / 3 on each side. */
function trialMeans(seed: number, n: number): number[] {
  const random = mulberry32(seed);
  const mean = (): number => (Number(random() < 0.5) + Number(random() < 0.5) + 1) / 3;
  return Array.from({ length: n }, () => mean() - mean());
}

/**
 * The reference: every one of the 2^n sign vectors of all n differences (zeros included), each
 * vector's interval of rejected shifts, and the interval of shifts with p ≥ α.
 */
function enumerated(diffs: readonly number[]): { low: number; high: number; pValue: number } {
  const n = diffs.length;
  const total = diffs.reduce((a, b) => a + b, 0);
  const tolerance = 1e-9 * diffs.reduce((a, b) => a + Math.abs(b), 0);
  const snap = (value: number): number => (Math.abs(value) <= tolerance ? 0 : value);
  const lows: number[] = [];
  const highs: number[] = [];
  let covering = 0;
  for (let mask = 0; mask < 2 ** n; mask++) {
    let flipped = 0;
    let signs = 0;
    for (let i = 0; i < n; i++) {
      const sign = (mask >> i) & 1 ? 1 : -1;
      flipped += sign * (diffs[i] ?? 0);
      signs += sign;
    }
    let [low, high] = [-Infinity, Infinity];
    if (Math.abs(signs) !== n) {
      const first = snap(total - flipped) / (n - signs);
      const second = snap(flipped + total) / (n + signs);
      [low, high] = [Math.min(first, second), Math.max(first, second)];
    }
    lows.push(low);
    highs.push(high);
    if (low <= 0 && high >= 0) covering++;
  }
  lows.sort((a, b) => a - b);
  highs.sort((a, b) => a - b);
  const rank = Math.ceil(0.05 * 2 ** n - 1e-9);
  return {
    low: lows[rank - 1] ?? -Infinity,
    high: highs[2 ** n - rank] ?? Infinity,
    pValue: covering / 2 ** n,
  };
}

describe('sign-flip test: scale', () => {
  it('gives the same p for 41 falls and 25 rises of 300 whatever the step', () => {
    const reference = signFlipTest(changes(41, 25, 1));
    assert.equal(reference.pValue, 0.0662);
    for (const step of [0.5, 0.25, 1 / 3, 0.1, 0.7, 2 / 3, 1e-6, 1234.5]) {
      const result = signFlipTest(changes(41, 25, step));
      assert.equal(result.pValue, reference.pValue, `step ${step}`);
      assert.ok(Object.is(result.high, 0), `step ${step}: high ${result.high} is exactly 0`);
      assert.ok(
        Math.abs(result.low / step - reference.low) <= 1e-12 * Math.abs(reference.low),
        `step ${step}: low ${result.low} scales with the step`,
      );
    }
  });

  it('keeps p and the interval when trial means are multiplied by a constant', () => {
    for (let seed = 0; seed < 6; seed++) {
      const diffs = trialMeans(seed, 80 + 20 * seed);
      const reference = signFlipTest(diffs);
      for (const factor of [3, 0.7, 1 / 3, 10]) {
        const result = signFlipTest(diffs.map((d) => d * factor));
        const what = `seed ${seed}, ×${factor}`;
        assert.equal(result.pValue, reference.pValue, what);
        for (const end of ['low', 'high'] as const) {
          const expected = reference[end] * factor;
          assert.ok(Math.abs(result[end] - expected) <= 1e-9 * factor, `${what}: ${end}`);
          assert.equal(result[end] === 0, reference[end] === 0, `${what}: ${end} at 0`);
        }
      }
    }
  });

  it('puts an end that is 0 within rounding at exactly 0, never at ±1e-18', () => {
    for (const step of [1 / 3, 0.1, 0.7]) {
      const { low, high } = signFlipTest(changes(25, 41, step));
      assert.ok(Object.is(low, 0), `step ${step}: low ${low}`);
      assert.ok(high > 0);
    }
  });
});

describe('sign-flip test: p = α and the interval', () => {
  it('keeps 0 in the interval at p = 0.05 (42 of 67 changes up), and the row is unchanged', () => {
    const alpha = significanceLevel(0.95);
    assert.equal(alpha, 0.05);
    // QA's order (rises first): the draws, so p, depend on the order of the differences.
    const boundary = signFlipTest(changes(42, 25, -1));
    assert.equal(boundary.pValue, 0.05);
    assert.equal(boundary.low, 0, 'the interval keeps 0, as p = 0.05 does');
    const label = labelOf(300, boundary.pValue, boundary.mean, { alpha, minPaired: 10 });
    assert.equal(label, 'unchanged');

    const beyond = signFlipTest(changes(43, 25, -1));
    assert.ok(beyond.pValue < 0.05 && beyond.low > 0, JSON.stringify(beyond));
  });

  it('never pins an unbounded end at 0: it is the largest change, on its side', () => {
    // With two or three pairs no shift is ever rejected on either side.
    assert.deepEqual([signFlipTest([0.3, 0.5]).low, signFlipTest([0.3, 0.5]).high], [-0.5, 0.5]);
    const three = signFlipTest([-0.2, -0.4, 0]);
    assert.deepEqual([three.low, three.high], [-0.4, 0.4]);
  });
});

describe('sign-flip test: exact for small samples', () => {
  it('enumerates every sign vector up to EXACT_LIMIT changes', () => {
    assert.equal(EXACT_LIMIT, 12);
    // 10 of 10 cases flip one way: 2/1024 exactly (4,999 draws said 0.0038).
    const ten = signFlipTest(new Array<number>(10).fill(-1));
    assert.deepEqual([ten.pValue, ten.method], [2 / 1024, 'exact']);
    assert.equal(signFlipTest(new Array<number>(9).fill(1)).pValue, 2 / 512);
    // Zeros never change the exact p: 10 falls among 200 cases.
    assert.equal(signFlipTest(changes(10, 0, 1, 200)).pValue, 2 / 1024);
    assert.equal(signFlipTest(changes(EXACT_LIMIT + 1, 0, 1)).method, 'resampled');
  });

  it('is deterministic and ignores the seed', () => {
    const diffs = trialMeans(7, 30).map((d, i) => (i < 11 ? d + 0.1 : 0));
    const first = signFlipTest(diffs, { seed: 1 });
    assert.equal(first.method, 'exact');
    assert.deepEqual(first, signFlipTest(diffs, { seed: 1 }));
    assert.deepEqual(first, signFlipTest(diffs, { seed: 99 }));
  });

  it('matches the full enumeration of all 2^n vectors, zeros included', () => {
    const random = mulberry32(21);
    for (let k = 0; k < 60; k++) {
      const n = 6 + (k % 10);
      const diffs = Array.from({ length: n }, () => {
        const u = random();
        if (u < 0.35) return 0;
        return u < 0.7 ? Math.round(6 * random() - 3) / 3 : random() - 0.3;
      });
      const expected = enumerated(diffs);
      const result = signFlipTest(diffs);
      const what = `${k}: ${JSON.stringify(diffs)}`;
      if (diffs.filter((d) => d !== 0).length > EXACT_LIMIT) continue;
      assert.equal(result.method, 'exact', what);
      assert.equal(result.pValue, expected.pValue, what);
      for (const end of ['low', 'high'] as const) {
        if (!Number.isFinite(expected[end])) continue;
        assert.ok(Math.abs(result[end] - expected[end]) <= 1e-12, `${what}: ${end}`);
      }
      assert.equal(result.low > 0 || result.high < 0, result.pValue < 0.05, what);
    }
  });
});

describe('evals compare: steps of 1/3 are not a false regression', () => {
  /** 300 rows: base scores `step` everywhere; head falls to 0 on 41, rises to 2·step on 25. */
  function project(): string {
    const rows = Array.from({ length: 300 }, (_, n) => ({ n, output: 'x' }));
    return jsonlProject(
      rows,
      [
        'evaluators:',
        '  - id: e',
        '    use: ./score.mjs',
        '    with: { side: "${SIDE}", step: "${STEP}" }',
        '    threshold: { gte: 0 }',
        'gate: { minPassRate: 0, regressions: block }',
      ],
      {
        'score.mjs': [
          'export default ({ testCase }, { side, step }) => {',
          '  const s = Number(step);',
          "  if (side === 'base') return { score: s };",
          '  return { score: testCase.n < 41 ? 0 : testCase.n < 66 ? 2 * s : s };',
          '};',
          '',
        ].join('\n'),
      },
    );
  }

  it('gives p = 0.066, unchanged and exit 0 for steps of 1/2, 1/3 and 0.35', async () => {
    for (const step of ['0.5', String(1 / 3), '0.35']) {
      const dir = project();
      const base = await runInProcess(['run', '-o', 'b.json'], dir, { SIDE: 'base', STEP: step });
      assert.equal(base.code, 0, base.stderr);
      const head = await runInProcess(['run', '-o', 'h.json', '--baseline', 'b.json'], dir, {
        SIDE: 'head',
        STEP: step,
      });
      assert.equal(head.code, 0, `step ${step}: the run passes\n${head.stdout}${head.stderr}`);
      const compared = await runInProcess(['compare', 'b.json', 'h.json'], dir);
      assert.equal(compared.code, 0, `step ${step}\n${compared.stdout}`);
      assert.match(
        compared.stdout,
        /\n {2}e +\S+ → \S+ \(-\S+, 95% CI -\S+…0\.000, includes 0\) +p = 0\.066 · Holm p = 0\.066\b.* unchanged/,
      );
      assert.doesNotMatch(compared.stdout, /-0\.0+\b/);
    }
  });
});
