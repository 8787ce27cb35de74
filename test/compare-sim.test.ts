import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  ISSUE_SHAPE,
  ksCritical01,
  ksUniform,
  simulate,
  type SimShape,
} from '../bench/compare-sim.ts';

/**
 * The short version of `npm run sim` (bench/sim.ts): fewer seeded pull requests and fewer sign
 * vectors, so it runs in seconds; the bounds are widened to match the smaller samples. The full
 * run's figures are in docs/statistics.md.
 */
const SHORT: SimShape = { ...ISSUE_SHAPE, resamples: 999 };

describe('simulated pull requests (short version of npm run sim)', () => {
  it('rarely blocks a pull request that changes nothing, with uniform per-row p-values', (t) => {
    const quiet = simulate(60, 1, SHORT, 0);
    const rowRate = quiet.rowsFlagged / quiet.rows;
    const ks = ksUniform(quiet.pValues);
    t.diagnostic(
      `${quiet.blocked}/${quiet.prs} blocked; ${quiet.rowsFlagged}/${quiet.rows} rows p < 0.05; KS ${ks.toFixed(4)}`,
    );
    assert.equal(quiet.rows, 60 * 4 * 5);
    // At most 5% expected: 9 of 60 or more would happen by chance less than 0.1% of the time.
    assert.ok(quiet.blocked <= 8, `${quiet.blocked} of 60 blocked`);
    // 1,200 rows: the binomial standard error at 5% is 0.63%, so 3%–7% is over 3 of them.
    assert.ok(rowRate >= 0.03 && rowRate <= 0.07, `per-row rate ${rowRate}`);
    assert.ok(ks < ksCritical01(quiet.pValues.length), `KS ${ks}`);
  });

  it('blocks pull requests that lower every score by 0.05', (t) => {
    const shifted = simulate(20, 1_000_000, SHORT, -0.05);
    t.diagnostic(`${shifted.blocked}/${shifted.prs} blocked`);
    assert.ok(shifted.blocked >= 16, `${shifted.blocked} of 20 blocked`);
  });
});
