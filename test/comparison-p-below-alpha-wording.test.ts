/**
 * A p-value below 0.05 never prints as 0.05 in the reports (docs: `p = 0.050` is not
 * significant, so a significant row must not show it). Four decimals were the most it got:
 * 0.04996, a Holm p of a large family or a normal-approximation p, printed as `p = 0.0500`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatP } from '../src/report/comparison-numbers.ts';

describe('formatP below 0.05', () => {
  it('shows the digits that keep it below 0.05', () => {
    assert.equal(formatP(0.04996), 'p = 0.04996');
    assert.equal(formatP(0.0499999), 'p = 0.0499999');
    assert.equal(formatP(0.0498), 'p = 0.0498');
  });

  it('keeps three decimals elsewhere', () => {
    assert.equal(formatP(0.034), 'p = 0.034');
    assert.equal(formatP(0.05), 'p = 0.050');
    assert.equal(formatP(0.0004), 'p < 0.001');
    assert.equal(formatP(0.9996), 'p = 1');
  });
});
