/**
 * QA round 5, D9: the footnote counts only the rows tested together (a row where no case changed
 * is left out of Holm) and says so, instead of "over all 1 row" under a two-row table.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { compareArtifacts } from '../src/compare/compare.ts';
import { renderComparisonText } from '../src/report/comparison-text.ts';
import { artifact, run, type CaseSpec } from './helpers/compare-builder.ts';

describe('the footnote of a comparison with an unchanged row (D9)', () => {
  it('says the rows counted are those in which something changed', () => {
    // 20 cases: `exact` falls on 10 of them, but every case still passes (scores ≥ 0.5), so the
    // pass-rate row has no changed case and is left out of the family.
    const base: CaseSpec[] = Array.from({ length: 20 }, (_, i) => ({
      id: `c${i}`,
      scores: { exact: 1 },
    }));
    const head: CaseSpec[] = base.map((c, i) => ({ ...c, scores: { exact: i < 10 ? 0.6 : 1 } }));
    const comparison = compareArtifacts(
      artifact([run('qa', {}, base)]),
      artifact([run('qa', {}, head)], 'b'.repeat(40)),
    );
    assert.equal(comparison.family.rows, 1);
    const text = renderComparisonText(comparison, { color: false });
    assert.match(text, /\n {2}pass rate .*\n {2}exact |\n {2}exact .*\n {2}pass rate /);
    assert.match(
      text,
      /over all 1 row of this comparison in which something changed \(every suite, grid point, evaluator, pass rate and κ; a row where no case changed cannot be significant and is left out of the count\)/,
    );
  });
});

describe('small changes keep their digits (D7)', () => {
  it('prints a Δ, interval ends and the detectable change below 0.0005 with more decimals', () => {
    const base: CaseSpec[] = Array.from({ length: 20 }, (_, i) => ({
      id: `c${i}`,
      scores: { exact: 0.9 },
    }));
    // Two cases move by +0.002: Δ = +0.0002, every end and the detectable change are small too.
    const head: CaseSpec[] = base.map((c, i) => ({ ...c, scores: { exact: i < 2 ? 0.902 : 0.9 } }));
    const text = renderComparisonText(
      compareArtifacts(
        artifact([run('qa', {}, base)]),
        artifact([run('qa', {}, head)], 'b'.repeat(40)),
      ),
      { color: false },
    );
    const row = text.split('\n').find((line) => /^ {2}exact /.test(line));
    assert.ok(row !== undefined, text);
    assert.match(row, /\(\+0\.00020, 95% CI /);
    assert.doesNotMatch(row, /[+-]0\.000?[^0-9]|±0\.000?[^0-9]/);
  });
});
