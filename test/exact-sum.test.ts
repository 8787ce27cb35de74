import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mulberry32 } from '../src/compare/sign-flip.ts';
import { ExactSum } from '../src/run/exact-sum.ts';
import { summarizeRun } from '../src/run/summary.ts';
import type { CaseResult } from '../src/types/index.ts';
import { caseResult, evaluation } from './report-fixture.ts';

/** Seeded, so a failure replays. */
const random = mulberry32;

function shuffled<T>(items: readonly T[], next: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

function exactSum(values: readonly number[]): number {
  const sum = new ExactSum();
  for (const value of values) sum.add(value);
  return sum.value();
}

describe('ExactSum', () => {
  it('is exact where += is not', () => {
    assert.notEqual(0.1 + 0.2 + 0.3, 0.6);
    assert.equal(exactSum([0.1, 0.2, 0.3]), 0.6);
    assert.equal(exactSum([1e16, 1, -1e16]), 1);
    assert.equal(exactSum([]), 0);
  });

  it('gives the same double in every order', () => {
    const next = random(7);
    for (let round = 0; round < 50; round++) {
      const values = Array.from({ length: 200 }, () => Math.round(next() * 1000) / 999);
      const expected = exactSum(values);
      for (let order = 0; order < 5; order++) {
        assert.equal(exactSum(shuffled(values, next)), expected);
      }
    }
  });

  it('makes run means independent of the order cases finished in', () => {
    const next = random(11);
    const cases: CaseResult[] = Array.from({ length: 300 }, (_, i) =>
      caseResult(i, {
        evaluations: [
          evaluation('sim', next(), null, {
            usage: {
              calls: 1,
              cacheHits: 0,
              promptTokens: 10,
              completionTokens: 2,
              cost: next() / 1000,
              latencyMs: 5,
            },
          }),
        ],
      }),
    );
    const inOrder = summarizeRun(cases, ['sim']);
    for (let order = 0; order < 5; order++) {
      assert.deepEqual(summarizeRun(shuffled(cases, next), ['sim']), inOrder);
    }
  });
});
