import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { simulateBatch, type Scenario } from '../bench/stats-model.ts';

/**
 * The short version of `npx tsx bench/stats-false-alarm.ts`: seeded simulated pull requests,
 * compared and gated by evalgate's own code (bench/stats-model.ts). A pull request that changes
 * nothing must be blocked at most 5% of the time however many rows it tests (docs/statistics.md),
 * and a clear drop must still be caught. The figures are fixed by the seed; the bounds hold with
 * a wide margin (the full study measures about 1–3% blocked, not 5%), so another seed passes too.
 */
const SEED = 20261128;
const grid = { suites: 2, gridPoints: 2, evaluators: 3, trials: 1 };
const BINARY: Scenario = { name: 'binary', kind: 'binary', passRate: 0.8, cases: 100, ...grid };
const GRADED: Scenario = {
  name: 'graded',
  kind: 'continuous',
  passRate: 0,
  cases: 100,
  ...grid,
  trials: 3,
};

describe('PR-level false alarms and power (short version of bench/stats-false-alarm.ts)', () => {
  it('blocks at most 5% of pull requests that change nothing, over 16 rows each', (t) => {
    const binary = simulateBatch(BINARY, 300, SEED, 0);
    const graded = simulateBatch(GRADED, 100, SEED, 1);
    const blocked = binary.blocked + graded.blocked;
    const prs = binary.prs + graded.prs;
    t.diagnostic(
      `binary ${binary.blocked}/${binary.prs}, graded ${graded.blocked}/${graded.prs} blocked; ` +
        `rows shown "possible regression" in ${binary.anyRegressedRow + graded.anyRegressedRow}`,
    );
    assert.equal(binary.familyRows, 16);
    assert.ok(blocked / prs <= 0.05, `${blocked} of ${prs} blocked`);
    // Two-sided: significant changes either way, still within the family's 5%.
    const significant = binary.anySignificant + graded.anySignificant;
    assert.ok(significant / prs <= 0.05, `${significant} of ${prs} with a significant change`);
  });

  it('catches a pass rate 10 points lower at every grid point in at least 70% of 40', (t) => {
    const dropped = simulateBatch(BINARY, 40, SEED, 2, { delta: 0.1, where: 'every run' });
    t.diagnostic(`${dropped.blocked}/${dropped.prs} blocked`);
    assert.ok(dropped.blocked >= 28, `${dropped.blocked} of 40 blocked`);
  });

  it('catches graded scores 0.05 lower at one grid point of one suite in at least 90% of 20', (t) => {
    const dropped = simulateBatch(GRADED, 20, SEED, 3, { delta: 0.05, where: 'one run' });
    t.diagnostic(`${dropped.blocked}/${dropped.prs} blocked`);
    assert.ok(dropped.blocked >= 18, `${dropped.blocked} of 20 blocked`);
  });
});
