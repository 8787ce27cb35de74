/**
 * QA round 10, F14 on the HTML report: its score cells used three decimals, so a mean of 0.9997
 * (2,999 passes of 3,000) read `1.000` next to a failed case. They now take the terminal's rule.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { score } from '../report-app/format.ts';

describe("the HTML report's score cells (QA10 F14)", () => {
  it('never show a mean below 1 as 1.000, nor one above 0 as 0.000', () => {
    assert.equal(score(2999 / 3000), '0.9997');
    assert.equal(score(1 / 3000), '0.0003');
  });

  it('keep three decimals otherwise, and a dash for none', () => {
    assert.equal(score(0.862), '0.862');
    assert.equal(score(1), '1.000');
    assert.equal(score(0), '0.000');
    assert.equal(score(null), '—');
  });
});
