import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { comparableCase, ReducedCases, reportableCase } from '../src/compare/comparable.ts';
import { buildAnnotations, countFailingRows } from '../src/report/annotations.ts';
import { isDetailed } from '../src/report/detail.ts';
import { PR_COMMENT_MAX_CHARS, renderMarkdownReport } from '../src/report/markdown.ts';
import type { CaseResult, ResultsArtifact, RunResult } from '../src/types.ts';
import { caseResult, evaluation, trialResult } from './report-fixture.ts';
import { artifactOf, failingRun } from './report-fixture-large.ts';

/** A seeded permutation of 0..n-1 (xorshift), so a failure reproduces. */
function shuffled(n: number, seed: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  let x = seed;
  for (let i = n - 1; i > 0; i--) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const j = (x >>> 0) % (i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** Case i: every third passes, every seventh is flaky (passed one trial of two), the rest fail. */
function mixedCases(n: number): CaseResult[] {
  return Array.from({ length: n }, (_, i) => {
    if (i % 7 === 3) {
      return caseResult(i, {
        passed: i % 2 === 0,
        flaky: true,
        trialPassRate: 0.5,
        trials: [trialResult(true), trialResult(false)],
      });
    }
    if (i % 3 === 0) return caseResult(i);
    return caseResult(i, {
      passed: false,
      ...(i % 5 === 0 ? { error: `boom ${i}` } : {}),
      evaluations: [evaluation('exact', 0, { gte: 1 }, { metadata: { reason: `row ${i}` } })],
    });
  });
}

function keptInOrder(cases: CaseResult[], wholeAtMost: number, order: number[]): CaseResult[] {
  const kept = new ReducedCases(reportableCase, { wholeAtMost });
  kept.open([{ cases: cases.length }]);
  for (const index of order) kept.record(0, index, cases[index]!);
  return kept.cases(0);
}

describe('ReducedCases with wholeAtMost (the Action keeps the first failing cases whole)', () => {
  it('keeps whole exactly the first N failing or flaky cases by position, in any finishing order', () => {
    const cases = mixedCases(400);
    const worthy = cases.flatMap((result, i) => (reportableCase(result) === result ? [i] : []));
    for (const wholeAtMost of [0, 1, 17, worthy.length - 1, worthy.length, 10_000]) {
      const firstWhole = new Set(worthy.slice(0, wholeAtMost));
      const inOrder = keptInOrder(
        cases,
        wholeAtMost,
        cases.map((_, i) => i),
      );
      for (const seed of [1, 7, 2024]) {
        const kept = keptInOrder(cases, wholeAtMost, shuffled(cases.length, seed));
        assert.equal(kept.length, cases.length);
        for (const [i, result] of kept.entries()) {
          const original = cases[i]!;
          if (firstWhole.has(i)) {
            assert.equal(
              result,
              original,
              `case ${i} whole (at most ${wholeAtMost}, seed ${seed})`,
            );
            assert.ok(isDetailed(result));
          } else if (reportableCase(original) === original) {
            assert.ok(!isDetailed(result), `case ${i} not detailed`);
            // Reduced as a comparison reads it, trials kept as their pass status only.
            const { trials, ...rest } = result;
            const { trials: _dropped, ...comparable } = comparableCase(original);
            assert.deepEqual(rest, comparable);
            assert.deepEqual(
              trials?.map((t) => t.passed),
              original.trials?.map((t) => t.passed),
            );
          } else {
            assert.deepEqual(result, comparableCase(original));
            assert.ok(isDetailed(result));
          }
        }
        // The same cases kept whatever the order they finished in.
        assert.deepEqual(kept, inOrder);
      }
    }
  });

  it('keeps every case as reduce has it without a bound', () => {
    const cases = mixedCases(100);
    const kept = new ReducedCases(reportableCase);
    kept.open([{ cases: 100 }]);
    for (const index of shuffled(100, 3)) kept.record(0, index, cases[index]!);
    assert.deepEqual(kept.cases(0), cases.map(reportableCase));
    assert.ok(kept.cases(0).every(isDetailed));
  });

  it('bounds each run on its own', () => {
    const a = mixedCases(60);
    const b = mixedCases(60);
    const kept = new ReducedCases(reportableCase, { wholeAtMost: 5 });
    kept.open([{ cases: 60 }, { cases: 60 }]);
    for (const index of shuffled(60, 9)) {
      kept.record(0, index, a[index]!);
      kept.record(1, index, b[index]!);
    }
    for (const run of [0, 1]) {
      const whole = kept.cases(run).filter((result, i) => result === (run === 0 ? a : b)[i]);
      assert.equal(whole.length, 5);
    }
  });
});

describe('reports over cases kept past the bound', () => {
  const annotationOptions = { sourceRoot: '', configPath: 'evals.yaml' };
  const keepRuns = (runs: RunResult[], wholeAtMost: number): ResultsArtifact => {
    const kept = new ReducedCases(reportableCase, { wholeAtMost });
    kept.open(runs.map((run) => ({ cases: run.cases.length })));
    for (const [r, run] of runs.entries()) {
      for (const index of shuffled(run.cases.length, r + 5)) {
        kept.record(r, index, run.cases[index]!);
      }
    }
    return artifactOf(runs.map((run, r) => ({ ...run, cases: kept.cases(r) })));
  };

  it('annotates the first rows as from every case, and counts every failing row', () => {
    const runs = [
      failingRun(300, { outputChars: 50 }),
      failingRun(300, { outputChars: 50, params: { model: 'b' } }),
    ];
    const full = artifactOf(runs);
    const kept = keepRuns(runs, 40);
    const fromFull = buildAnnotations(full, annotationOptions);
    const fromKept = buildAnnotations(kept, annotationOptions);
    assert.equal(fromFull.length, 300);
    assert.equal(fromKept.length, 40);
    // What the check run takes (at most the bound) is the same either way.
    assert.deepEqual(fromKept, fromFull.slice(0, 40));
    assert.equal(countFailingRows(kept, annotationOptions), 300);
    assert.equal(countFailingRows(full, annotationOptions), 300);
  });

  it('leaves out a row whose case is kept in detail in one run but not in another', () => {
    const a = failingRun(300, { outputChars: 20 });
    const b = failingRun(300, { outputChars: 20, params: { model: 'b' } });
    // Run b passes its first 100 cases: its first failing cases are rows 101 on, which run a
    // keeps without details.
    b.cases = b.cases.map((result, i) => (i < 100 ? { ...result, passed: true } : result));
    const kept = keepRuns([a, b], 40);
    const rows = buildAnnotations(kept, annotationOptions).map((x) => x.start_line);
    assert.deepEqual(
      rows,
      Array.from({ length: 40 }, (_, i) => i + 2),
      'rows 1-40 (lines 2-41) only',
    );
    assert.equal(countFailingRows(kept, annotationOptions), 300);
  });

  it('counts a case failing at two places as two rows', () => {
    const run = failingRun(3, { outputChars: 5 });
    const moved = run.cases.map((result) => ({
      ...result,
      source: { file: 'testsets/other.csv', line: 7 },
    }));
    const other = { ...run, params: { model: 'b' }, cases: moved };
    assert.equal(countFailingRows(artifactOf([run, other]), annotationOptions), 6);
    assert.equal(countFailingRows(artifactOf([run, run]), annotationOptions), 3);
  });

  it('lists only detailed failing cases and counts the rest', () => {
    const runs = [failingRun(2000, { outputChars: 10 })];
    const render = (artifact: ResultsArtifact, maxChars: number) =>
      renderMarkdownReport(artifact, {
        title: 'evals: evals.yaml',
        marker: '',
        maxChars,
        sourceRoot: '',
        baseline: null,
      });
    const kept = keepRuns(runs, 100);
    // Room for every case: only the 100 kept in detail are listed, the rest are counted.
    const doc = render(kept, 10 * 1024 * 1024);
    assert.equal((doc.match(/^- `case-\d+`/gm) ?? []).length, 100);
    assert.match(doc, /<summary>2,000 failing cases<\/summary>/);
    assert.match(doc, /^… 1,900 more failing cases not shown \(see the results artifact\)$/m);
    assert.match(doc, /`case-00100`/);
    assert.doesNotMatch(doc, /`case-00101`/);
    // Within a PR comment the bound is not reached: the same comment as from every case.
    const fits = keepRuns(runs, 1000);
    assert.equal(
      render(fits, PR_COMMENT_MAX_CHARS),
      render(artifactOf(runs), PR_COMMENT_MAX_CHARS),
    );
  });

  it('names flaky cases kept past the bound with their trials', () => {
    const runs = [failingRun(30, { outputChars: 10 })];
    const flaky = caseResult(99, {
      id: 'case-flaky',
      passed: true,
      flaky: true,
      trialPassRate: 0.5,
      trials: [trialResult(true), trialResult(false)],
    });
    runs[0]!.cases.push(flaky);
    const doc = renderMarkdownReport(keepRuns(runs, 5), {
      title: 'evals',
      marker: '',
      maxChars: PR_COMMENT_MAX_CHARS,
      sourceRoot: '',
      baseline: null,
    });
    assert.match(
      doc,
      /\*\*1 flaky case\*\* \(passed some trials, failed others; trials passed\): `case-flaky` 1\/2/,
    );
  });
});
