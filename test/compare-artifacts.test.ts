/**
 * compareArtifacts on synthetic data: the statistics of each row (unchanged, improved, regressed,
 * too few cases, the false-positive rate under no change), and how runs, evaluators and cases are
 * matched and listed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { compareArtifacts } from '../src/compare/compare.ts';
import type { Comparison } from '../src/types/comparison.ts';
import { artifact, noisyPair, run } from './helpers/compare-builder.ts';

function labels(comparison: Comparison): string[] {
  return comparison.runs.flatMap((runComparison) => [
    `pass rate: ${runComparison.passRate.label}`,
    ...runComparison.evaluators.map((row) => `${row.evaluator}: ${row.label}`),
  ]);
}

describe('compareArtifacts: statistics on synthetic data', () => {
  it('labels every row of two identical runs unchanged, with CI [0, 0] and p = 1', () => {
    const [base] = noisyPair(1, 200, 0);
    const comparison = compareArtifacts(base, structuredClone(base));
    assert.deepEqual(labels(comparison), [
      'pass rate: unchanged',
      'quality: unchanged',
      'exact: unchanged',
    ]);
    for (const row of comparison.runs[0]?.evaluators ?? []) {
      assert.equal(row.paired, 200);
      assert.deepEqual(row.ci, { low: 0, high: 0 });
      assert.equal(row.pValue, 1);
      assert.equal(row.delta, 0);
    }
    assert.equal(comparison.runs[0]?.passRate.pValue, 1);
    assert.deepEqual(comparison.counts, {
      improved: 0,
      regressed: 0,
      unchanged: 3,
      tooFewCases: 0,
      underpowered: 0,
    });
    assert.equal(comparison.hasRegression, false);
  });

  it('calls HEAD = BASE + 0.15 improved and − 0.15 regressed', () => {
    const [base, better] = noisyPair(2, 200, 0.15);
    const up = compareArtifacts(base, better);
    const quality = up.runs[0]?.evaluators.find((row) => row.evaluator === 'quality');
    assert.equal(quality?.label, 'improved');
    assert.ok(quality.ci !== null && quality.ci.low > 0);
    assert.ok(quality.ci.low < 0.15 && quality.ci.high > 0.1, JSON.stringify(quality.ci));
    assert.ok((quality.pValue ?? 1) < 0.001);
    assert.equal(up.hasRegression, false);

    const [base2, worse] = noisyPair(3, 200, -0.15);
    const down = compareArtifacts(base2, worse);
    const row = down.runs[0]?.evaluators.find((change) => change.evaluator === 'quality');
    assert.equal(row?.label, 'regressed');
    assert.ok(row.ci !== null && row.ci.high < 0);
    assert.equal(down.runs[0]?.passRate.label, 'regressed');
    assert.ok((down.runs[0]?.passRate.passToFail ?? 0) > (down.runs[0]?.passRate.failToPass ?? 0));
    assert.equal(down.hasRegression, true);
    assert.ok(down.counts.regressed >= 2);
  });

  it('flags at most ~5% of rows when BASE and HEAD come from the same process (200 seeds)', (t) => {
    const flagged = { quality: 0, exact: 0, 'pass rate': 0 };
    const seeds = 200;
    for (let seed = 1000; seed < 1000 + seeds; seed++) {
      const [base, head] = noisyPair(seed, 200, 0);
      const comparison = compareArtifacts(base, head);
      const runComparison = comparison.runs[0];
      assert.ok(runComparison);
      if (runComparison.passRate.label !== 'unchanged') flagged['pass rate']++;
      for (const row of runComparison.evaluators) {
        assert.ok(
          row.label === 'unchanged' || row.label === 'improved' || row.label === 'regressed',
        );
        if (row.label !== 'unchanged') flagged[row.evaluator as 'quality' | 'exact']++;
      }
    }
    for (const [row, count] of Object.entries(flagged)) {
      t.diagnostic(
        `${row}: ${count}/${seeds} null comparisons flagged (${((100 * count) / seeds).toFixed(1)}%)`,
      );
      // Nominal 5%; the binomial sampling error over 200 seeds is ±1.5%, so 8% is the bound.
      assert.ok(count / seeds <= 0.08, `${row}: ${count}/${seeds}`);
    }
  });

  it('says too few cases under 10 paired, however large the change', () => {
    const baseCases = Array.from({ length: 9 }, (_, i) => ({ id: `c${i}`, scores: { q: 0.1 } }));
    const headCases = Array.from({ length: 9 }, (_, i) => ({ id: `c${i}`, scores: { q: 0.9 } }));
    const comparison = compareArtifacts(
      artifact([run('s', {}, baseCases)]),
      artifact([run('s', {}, headCases)]),
    );
    const runComparison = comparison.runs[0];
    assert.equal(runComparison?.passRate.label, 'too few cases');
    assert.equal(runComparison.passRate.failToPass, 9);
    assert.equal(runComparison.evaluators[0]?.label, 'too few cases');
    assert.equal(runComparison.evaluators[0]?.paired, 9);
    assert.ok(Math.abs((runComparison.evaluators[0]?.delta ?? 0) - 0.8) < 1e-12);
    assert.deepEqual(comparison.counts, {
      improved: 0,
      regressed: 0,
      unchanged: 0,
      tooFewCases: 2,
      underpowered: 0,
    });

    // With the threshold lowered, the same data is a verdict.
    const lowered = compareArtifacts(
      artifact([run('s', {}, baseCases)]),
      artifact([run('s', {}, headCases)]),
      { minPaired: 5 },
    );
    assert.equal(lowered.runs[0]?.evaluators[0]?.label, 'improved');
    assert.equal(lowered.runs[0]?.passRate.label, 'improved');
    // 9 of 9 fail → pass: McNemar's exact p is 2 / 512; the sign flips estimate it from 4,999 draws.
    assert.ok(Math.abs((lowered.runs[0]?.passRate.pValue ?? 1) - 2 / 512) < 0.003);
  });

  it('excludes errored scores pairwise', () => {
    const base = Array.from({ length: 12 }, (_, i) => ({
      id: `c${i}`,
      scores: { q: i < 3 ? null : 0.5 },
    }));
    const head = Array.from({ length: 12 }, (_, i) => ({
      id: `c${i}`,
      scores: { q: i === 11 ? null : 0.5 },
    }));
    const row = compareArtifacts(artifact([run('s', {}, base)]), artifact([run('s', {}, head)]))
      .runs[0]?.evaluators[0];
    assert.equal(row?.paired, 8);
    assert.equal(row.label, 'too few cases');
    assert.equal(row.baseMean, 0.5);
  });
});

describe('compareArtifacts: matching and case lists', () => {
  it('matches runs by suite and params whatever the key order, and lists one-sided runs', () => {
    const cases = Array.from({ length: 12 }, (_, i) => ({ id: `c${i}`, scores: { q: 0.7 } }));
    const base = artifact([
      run('qa', { model: 'small', temperature: 0, extra: { a: 1, b: [1, 2] } }, cases),
      run('qa', { model: 'large' }, cases),
    ]);
    const head = artifact([
      run('qa', { extra: { b: [1, 2], a: 1 }, temperature: 0, model: 'small' }, cases),
      run('qa', { model: 'medium' }, cases),
      run('other', {}, cases),
    ]);
    const comparison = compareArtifacts(base, head);
    assert.equal(comparison.runs.length, 1);
    assert.equal(comparison.runs[0]?.params.model, 'small');
    assert.deepEqual(comparison.onlyInBase, [{ suite: 'qa', params: { model: 'large' } }]);
    assert.deepEqual(comparison.onlyInHead, [
      { suite: 'qa', params: { model: 'medium' } },
      { suite: 'other', params: {} },
    ]);
  });

  it('lists evaluators present on one side only', () => {
    const base = Array.from({ length: 10 }, (_, i) => ({
      id: `c${i}`,
      scores: { shared: 0.5, old: 0.5 },
    }));
    const head = Array.from({ length: 10 }, (_, i) => ({
      id: `c${i}`,
      scores: { fresh: 0.5, shared: 0.5 },
    }));
    const runComparison = compareArtifacts(
      artifact([run('s', {}, base)]),
      artifact([run('s', {}, head)]),
    ).runs[0];
    assert.deepEqual(
      runComparison?.evaluators.map((row) => row.evaluator),
      ['shared'],
    );
    assert.deepEqual(runComparison.evaluatorsOnlyInBase, ['old']);
    assert.deepEqual(runComparison.evaluatorsOnlyInHead, ['fresh']);
  });

  it('lists newly failing, fixed, added, removed, content-changed and flaky cases', () => {
    const base = run('s', {}, [
      { id: 'steady', scores: { q: 0.9 } },
      { id: 'breaks', scores: { q: 0.9 } },
      { id: 'heals', scores: { q: 0.1 } },
      { id: 'edited', scores: { q: 0.9 }, contentId: 'v1' },
      { id: 'gone', scores: { q: 0.9 } },
    ]);
    const head = run('s', {}, [
      { id: 'steady', scores: { q: 0.9 }, flaky: false, trialPassRate: 1 },
      { id: 'breaks', scores: { q: 0.1 }, flaky: true, trialPassRate: 0.4 },
      { id: 'heals', scores: { q: 0.9 } },
      { id: 'edited', scores: { q: 0.1 }, contentId: 'v2' },
      { id: 'new', scores: { q: 0.9 } },
    ]);
    const runComparison = compareArtifacts(artifact([base]), artifact([head])).runs[0];
    assert.ok(runComparison);
    const ids = (list: readonly { id: string }[]): string[] => list.map((ref) => ref.id);
    assert.deepEqual(ids(runComparison.cases.newlyFailing), ['breaks']);
    assert.deepEqual(ids(runComparison.cases.fixed), ['heals']);
    assert.deepEqual(ids(runComparison.cases.added), ['new']);
    assert.deepEqual(ids(runComparison.cases.removed), ['gone']);
    // The edited row went from pass to fail, but its question changed: not a newly failing case.
    assert.deepEqual(ids(runComparison.cases.contentChanged), ['edited']);
    assert.deepEqual(runComparison.cases.flaky, [
      { id: 'breaks', source: { file: 'testsets/qa.csv', line: 3 }, trialPassRate: 0.4 },
    ]);
    assert.deepEqual(runComparison.cases.removed[0]?.source, { file: 'testsets/qa.csv', line: 6 });
    // Only the three cases with the same id and content are paired.
    assert.equal(runComparison.passRate.paired, 3);
    assert.equal(runComparison.passRate.passToFail, 1);
    assert.equal(runComparison.passRate.failToPass, 1);
    assert.equal(runComparison.evaluators[0]?.paired, 3);
  });
});
