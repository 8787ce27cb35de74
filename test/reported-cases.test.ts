import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readReducedArtifact } from '../src/artifact/read.ts';
import { serializeArtifact } from '../src/artifact/artifact.ts';
import { comparableCases } from '../src/compare/comparable.ts';
import { buildAnnotations, countFailingRows } from '../src/report/annotations.ts';
import {
  failingCasesWhole,
  reportedArtifact,
  type ReportedArtifact,
  type ReportedCase,
} from '../src/report/reported-cases.ts';
import { PR_COMMENT_MAX_CHARS } from '../src/report/github-limits.ts';
import { renderMarkdownReport } from '../src/report/markdown.ts';
import type { CaseResult, RunResult } from '../src/types/index.ts';
import { caseResult, evaluation, trialResult } from './report-fixture.ts';
import { scratch } from './helpers/cli.ts';
import { artifactOf, failingRun } from './report-fixture-large.ts';

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

/** The one run of `cases`, as the reports hold it with at most `wholeAtMost` whole. */
function keptCases(cases: CaseResult[], wholeAtMost: number): ReportedCase[] {
  const artifact = artifactOf([{ ...failingRun(0), cases }]);
  return reportedArtifact(artifact, () => cases, wholeAtMost).runs[0]!.cases;
}

describe('reportedArtifact (the reports keep the first failing cases whole)', () => {
  it('keeps whole exactly the first N failing or flaky cases by position', () => {
    const cases = mixedCases(400);
    const worthy = cases.flatMap((result, i) => (!result.passed || result.flaky ? [i] : []));
    for (const wholeAtMost of [0, 1, 17, worthy.length - 1, worthy.length, 10_000]) {
      const firstWhole = new Set(worthy.slice(0, wholeAtMost));
      const kept = keptCases(cases, wholeAtMost);
      assert.equal(kept.length, cases.length);
      for (const [i, result] of kept.entries()) {
        const original = cases[i]!;
        const { detailed, ...held } = result;
        if (firstWhole.has(i)) {
          assert.deepEqual(held, original, `case ${i} whole (at most ${wholeAtMost})`);
          assert.equal(detailed, true);
          continue;
        }
        assert.equal(detailed, false, `case ${i} not detailed`);
        // Reduced as a comparison reads it, trials kept as their pass status only.
        const { trials, ...rest } = held;
        const { trials: _dropped, ...comparable } = comparableCases({})(original);
        assert.deepEqual(rest, comparable);
        assert.deepEqual(
          trials?.map((t) => t.passed),
          original.trials?.map((t) => t.passed),
        );
      }
    }
  });

  it('bounds each run on its own', () => {
    const a = mixedCases(60);
    const b = mixedCases(60);
    const artifact = artifactOf([
      { ...failingRun(0), cases: a },
      { ...failingRun(0), cases: b },
    ]);
    const kept = reportedArtifact(artifact, (run) => (run === 0 ? a : b), 5);
    for (const run of kept.runs) {
      assert.equal(run.cases.filter((result) => result.detailed).length, 5);
    }
  });
});

describe('reports over cases kept past the bound', () => {
  const annotationOptions = { sourceRoot: '', configPath: 'evals.yaml' };
  const keepRuns = (runs: RunResult[], wholeAtMost: number): ReportedArtifact =>
    reportedArtifact(artifactOf(runs), (run) => runs[run]?.cases ?? [], wholeAtMost);

  it('annotates the first rows as from every case, and counts every failing row', () => {
    const runs = [
      failingRun(300, { outputChars: 50 }),
      failingRun(300, { outputChars: 50, params: { model: 'b' } }),
    ];
    const full = keepRuns(runs, Infinity);
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
    const render = (artifact: ReportedArtifact, maxChars: number) =>
      renderMarkdownReport(artifact, {
        title: 'evals: evals.yaml',
        marker: '',
        maxChars,
        sourceRoot: '',
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
      render(keepRuns(runs, Infinity), PR_COMMENT_MAX_CHARS),
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
    });
    assert.match(
      doc,
      /\*\*1 flaky case\*\* \(passed some trials, failed others; trials passed\): `case-flaky` 1\/2/,
    );
  });
});

describe('failingCasesWhole (evals compare reads HEAD through it)', () => {
  it('keeps the first failing cases of every run whole, each run counted on its own', () => {
    // Two grid points of three failing cases each, read back from a file with one whole a run.
    const runs = [0, 1].map((point) => ({
      ...failingRun(3, { outputChars: 10, params: { point } }),
    }));
    const path = join(scratch(), 'head.json');
    writeFileSync(path, serializeArtifact(artifactOf(runs)));
    const { artifact: read } = readReducedArtifact(path, 'head.json', (_, run) =>
      failingCasesWhole(comparableCases(run), 1),
    );
    for (const [i, run] of read.runs.entries()) {
      const original = runs[i]!.cases;
      assert.deepEqual(run.cases[0], original[0], `run ${i}: its first failing case whole`);
      for (const [n, result] of run.cases.slice(1).entries()) {
        assert.deepEqual(
          result,
          comparableCases(runs[i]!)(original[n + 1]!),
          `run ${i}: the rest reduced`,
        );
      }
    }
  });
});
