/**
 * A large family's rows draw sign vectors in stages (src/compare/resampling-stages.ts): every
 * row draws 4,999, and only a row whose p stays small draws on towards the family's ceiling
 * (4 × rows / α). Before, every row drew the ceiling, so the work grew with the square of the
 * family: 2,400 rows took minutes. Counted in sign vectors drawn, never in seconds.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { simulatedArtifacts } from '../bench/compare-sim.ts';
import { matchRuns } from '../src/compare/match-runs.ts';
import { resamplingStages, signFlipTailBound } from '../src/compare/resampling-stages.ts';
import { testRuns } from '../src/compare/row-tests.ts';
import { pairRuns } from '../src/compare/run-comparison.ts';
import {
  DEFAULT_RESAMPLES,
  mulberry32,
  signFlipTest,
  TIE_TOLERANCE,
} from '../src/compare/sign-flip.ts';

const SETTINGS = { confidence: 0.95, resamples: DEFAULT_RESAMPLES, seed: 0x5eed, minPaired: 10 };

/** One simulated pull request of 50 grid points × 20 evaluators: 1,000 score rows of `cases`. */
function family(shift: number, cases = 30): ReturnType<typeof testRuns> {
  const shape = { cases, gridPoints: 50, evaluators: 20, noise: 0.15 };
  const { base, head } = simulatedArtifacts(3, shape, shift);
  const pairings = matchRuns(base.runs, head.runs).pairs.map(([b, h]) =>
    pairRuns(b, h, { base: false, head: false }),
  );
  return testRuns(pairings, SETTINGS);
}

/** `count` differences around `mean`, seeded. */
function diffs(count: number, mean: number, seed: number): number[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, () => mean + (random() - 0.5) * 0.6);
}

describe('a 1,000-row family', () => {
  it('draws about 5,000 sign vectors a row, not the 80,000 its first Holm threshold needs', () => {
    const tested = family(0);
    assert.ok(tested.family.rows >= 1000, `${tested.family.rows} rows`);
    assert.equal(tested.maxResamples, 79_999);
    const perRow = tested.drawn / tested.family.rows;
    // 4,999 each, plus the next stages for the few rows whose p is small: a quarter more at most.
    assert.ok(perRow >= DEFAULT_RESAMPLES && perRow <= 1.25 * 5000, `${perRow} vectors a row`);
    assert.equal(tested.family.regressions, 0);
  });

  it('still lets a clear change reach the first Holm threshold, by drawing the ceiling', () => {
    const row = signFlipTest(diffs(30, -0.3, 1), { maxResamples: 79_999 });
    assert.equal(row.drawn, 79_999);
    assert.equal(row.pValue, 1 / 80_000);
    assert.ok(row.pValue * 1000 < 0.05);
  });
});

// A family of rows that all changed clearly drew the ceiling for every row, only to show p below
// Holm's first threshold: its work grew with F² (800 rows took 3 times the CPU of 400). A row
// whose Hoeffding bound is already below every p the ceiling can give draws the first stage.
describe('a change far beyond noise', () => {
  it('draws the first stage only, reporting the bound, which stays below the first threshold', () => {
    const changed = diffs(60, -0.5, 1);
    const row = signFlipTest(changed, { maxResamples: 79_999 });
    assert.equal(row.drawn, DEFAULT_RESAMPLES);
    const sum = changed.reduce((a, b) => a + b, 0);
    const squares = changed.reduce((a, b) => a + b * b, 0);
    const bound = signFlipTailBound(
      sum,
      squares,
      TIE_TOLERANCE * changed.reduce((a, b) => a + Math.abs(b), 0),
    );
    assert.ok(row.pValue <= 1 / 80_000, `p ${row.pValue}`);
    assert.equal(row.pValue, bound);
    assert.ok(row.high < 0, 'its interval leaves 0 out, as p < 0.05 says');
    // A family of no more than the first stage is as it was: p from its 4,999 vectors.
    assert.equal(signFlipTest(changed).pValue, 1 / 5_000);
  });

  it('in a 1,000-row family that all changed, every row significant at about 5,000 vectors', () => {
    // 100 cases: Hoeffding's bound needs some 25 consistent changes to get below 1 / 80,000.
    const tested = family(-0.2, 100);
    const rows = tested.runs.flatMap((run) => run.evaluators);
    assert.ok(rows.length >= 1000, `${rows.length} rows`);
    assert.ok(
      rows.every((row) => row.significant),
      `${rows.filter((row) => !row.significant).length} rows not significant`,
    );
    const perRow = tested.drawn / tested.family.rows;
    assert.ok(perRow <= 1.25 * 5000, `${perRow} vectors a row, not the ceiling's 80,000`);
  });

  it('gives 1 when there is nothing to reach', () => {
    assert.equal(signFlipTailBound(0, 1, 0), 1);
    assert.equal(signFlipTailBound(1e-12, 1, 1e-9), 1);
    assert.equal(signFlipTailBound(3, 0, 0), 1);
  });
});

describe('staged sign vectors', () => {
  it('leave a row that stops at the first stage exactly as 4,999 vectors left it', () => {
    for (const seed of [1, 2, 3]) {
      const quiet = diffs(40, 0, seed);
      const staged = signFlipTest(quiet, { maxResamples: 79_999, seed });
      assert.equal(staged.drawn, DEFAULT_RESAMPLES, `seed ${seed}: p ${staged.pValue}`);
      assert.deepEqual(staged, signFlipTest(quiet, { seed }));
    }
  });

  it('are the same for the same seed, and keep p < 0.05 exactly when the interval excludes 0', () => {
    for (let seed = 0; seed < 40; seed++) {
      const row = diffs(25, 0.06, seed);
      const staged = signFlipTest(row, { maxResamples: 39_999, seed });
      assert.deepEqual(staged, signFlipTest(row, { maxResamples: 39_999, seed }));
      const excludesZero = staged.low > 0 || staged.high < 0;
      assert.equal(excludesZero, staged.pValue < 0.05, `seed ${seed}: ${JSON.stringify(staged)}`);
    }
  });

  it('keep p valid: rows that change nothing reach p ≤ u at most u of the time', () => {
    const rows = 600;
    const levels = [0.002, 0.01, 0.05];
    const below = levels.map(() => 0);
    for (let seed = 0; seed < rows; seed++) {
      const { pValue } = signFlipTest(diffs(20, 0, 10_000 + seed), {
        resamples: 999,
        maxResamples: 31_999,
        seed,
      });
      for (const [i, level] of levels.entries()) if (pValue <= level) below[i]!++;
    }
    // Binomial upper bounds, about 3 standard errors above u × rows.
    assert.ok(below[0]! <= 5, `${below[0]} of ${rows} at p ≤ 0.002`);
    assert.ok(below[1]! <= 14, `${below[1]} of ${rows} at p ≤ 0.01`);
    assert.ok(below[2]! <= 46, `${below[2]} of ${rows} at p ≤ 0.05`);
  });

  it('double up to the ceiling exactly, and are one stage when the ceiling is the first', () => {
    assert.deepEqual(resamplingStages(4999, 4999), [4999]);
    assert.deepEqual(resamplingStages(4999, 23_999), [4999, 9999, 19_999, 23_999]);
  });
});
