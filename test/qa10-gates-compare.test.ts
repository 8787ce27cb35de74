/**
 * A comparison must not make a regression out of floating-point noise at a score of 0: 40 cases
 * whose lower-is-better score went from 0 to `0.1 + 0.2 − 0.3` (5.6e-17) were a significant
 * regression, printed `0.00 → 0.00 (0.00, 95% CI 0.00…0.00) … regressed`, and blocked the run.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareArtifacts } from '../src/compare/compare.ts';
import type { RunResult } from '../src/types/index.ts';
import { artifact, run, type CaseSpec } from './helpers/compare-builder.ts';

const NOISE = 0.1 + 0.2 - 0.3;

function cases(score: number): CaseSpec[] {
  return Array.from({ length: 40 }, (_, i) => ({ id: `c${i}`, scores: { dist: score } }));
}

/** A run of 40 cases scoring `score`, its evaluator lower-is-better (a distance). */
function distanceRun(score: number): RunResult {
  const result = run('q', {}, cases(score));
  const dist = result.summary.evaluators.dist;
  if (dist !== undefined) dist.lowerIsBetter = true;
  return result;
}

describe('a score that moved by floating-point noise at 0', () => {
  for (const [name, before, after] of [
    ['0 → 5.6e-17', 0, NOISE],
    ['5.6e-17 → 0', NOISE, 0],
  ] as const) {
    it(`is unchanged over 40 cases (${name})`, () => {
      const comparison = compareArtifacts(
        artifact([distanceRun(before)]),
        artifact([distanceRun(after)]),
      );
      const row = comparison.runs[0]?.evaluators.find((change) => change.evaluator === 'dist');
      assert.ok(row !== undefined);
      assert.equal(row.lowerIsBetter, true);
      assert.equal(row.label, 'unchanged');
      assert.equal(row.delta, 0);
    });
  }

  it('still finds a real change of a small score', () => {
    const comparison = compareArtifacts(
      artifact([run('q', {}, cases(0))]),
      artifact([run('q', {}, cases(0.001))]),
    );
    const row = comparison.runs[0]?.evaluators.find((change) => change.evaluator === 'dist');
    assert.ok(row !== undefined);
    assert.equal(row.label, 'improved');
  });
});
