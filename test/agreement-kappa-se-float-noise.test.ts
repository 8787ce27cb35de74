/**
 * κ's standard error where it is 0 in exact arithmetic must be 0, not floating-point noise: with
 * every human label the same, κ is 0 whatever the verdicts (and its variance 0), yet the formula's
 * two near-equal terms left a standard error of ~1e-8 in about a quarter of such tables, which
 * the summary printed as `κ 0.000 (95% CI -0.000000005…0.000000005)`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AgreementTally, identityWeights, kappa } from '../src/evaluators/agreement.ts';
import type { EvaluationResult } from '../src/types/index.ts';

describe('κ standard error at a degenerate table', () => {
  it('is exactly 0 when every human label is the same (κ is then 0 for any verdicts)', () => {
    const weights = identityWeights(2);
    const noisy: string[] = [];
    for (let n = 1; n <= 40; n++) {
      for (let pass = 0; pass < n; pass++) {
        const result = kappa(
          [
            [0, 0],
            [n - pass, pass],
          ],
          weights,
        );
        assert.equal(result.kappa, 0);
        if (result.se !== 0) noisy.push(`${n - pass} fail, ${pass} pass: se ${result.se}`);
      }
    }
    assert.deepEqual(noisy, []);
  });

  it('gives an interval of exactly 0…0 in the summary (30 rows labelled pass, 16 judged fail)', () => {
    const tally = new AgreementTally({ column: 'human', choices: null });
    const evaluation = (passed: boolean): EvaluationResult => ({
      evaluator: 'exact',
      score: passed ? 1 : 0,
      threshold: { gte: 1 },
      passed,
      metadata: null,
      error: null,
      durationMs: 0,
    });
    for (let i = 0; i < 30; i++) tally.add('pass', evaluation(i >= 16));
    const summary = tally.summary();
    assert.equal(summary.kappa, 0);
    assert.deepEqual(summary.kappaCi, { low: 0, high: 0 });
  });
});
