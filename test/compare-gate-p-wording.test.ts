/**
 * The `regressions` gate condition names each blocking row with its p and Holm p. Written with
 * two significant digits, a Holm p of 0.0498 (which blocks) read `Holm p = 0.050`, the value that
 * does not, and a p that underflowed to 0 (a κ collapsing over thousands of labels) read
 * `p = 0.0`, a certainty no test gives.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { significantRegressions } from '../src/compare/gate.ts';
import type { RunComparison } from '../src/types/comparison.ts';
import { runComparison } from './helpers/comparison-rows.ts';

/** A grid point whose pass rate fell 20 points with these p-values. */
function run(pValue: number, adjustedP: number): RunComparison {
  return runComparison([], {
    headRate: 0.7,
    delta: -0.2,
    ci: { low: -0.3, high: -0.1 },
    sd: 0.4,
    passToFail: 10,
    pValue,
    adjustedP,
    qValue: adjustedP,
    label: 'regressed',
    significant: adjustedP < 0.05,
  });
}

describe('the p-values in the regressions gate condition', () => {
  it('never print a blocking Holm p as 0.050', () => {
    const [found] = significantRegressions(run(0.0249, 0.0498));
    assert.ok(found !== undefined);
    assert.match(found.text, /p = 0\.025, Holm p = 0\.0498\)$/);
  });

  it('print a p that underflowed to 0 as below a bound, not as 0', () => {
    const [found] = significantRegressions(run(0, 0));
    assert.ok(found !== undefined);
    assert.match(found.text, /\(-20\.0 pp, p < 0\.0001, Holm p < 0\.0001\)$/);
  });

  it('keep two significant digits otherwise', () => {
    const [found] = significantRegressions(run(0.001, 0.004));
    assert.match(found?.text ?? '', /p = 0\.0010, Holm p = 0\.0040\)$/);
  });
});
