/**
 * renderMarkdownReport, the PR comment and job summary: the verdict, tables, failing cases and
 * links, every piece of user text escaped, and the same document from cases reduced as the
 * reports keep them. (The statistical comparison in it: comment-overview.test.ts.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { PR_COMMENT_MAX_CHARS } from '../src/report/github-limits.ts';
import { renderMarkdownReport } from '../src/report/markdown.ts';
import type { RunResult } from '../src/types/index.ts';
import { comparableCases } from '../src/compare/comparable.ts';
import type { ReportedArtifact } from '../src/report/reported-cases.ts';
import { reported } from './helpers/cases.ts';
import { buildAnnotations } from '../src/report/annotations.ts';
import { caseResult, evaluation, fixtureRuns, trialResult } from './report-fixture.ts';
import { artifactOf, failingRun, NASTY, nastyRun } from './report-fixture-large.ts';
import { assertSafeStructure, MARKER, render, ZWJ, ZWSP } from './helpers/markdown-report.ts';

describe('renderMarkdownReport', () => {
  it('renders the verdict, totals, one table per run, failed conditions and failing cases', () => {
    const expected = [
      MARKER,
      '## evals: evals.yaml',
      '',
      '**❌ Blocked**: the gate failed on 1 of 2 grid points; 5 of 8 cases fail (1 errored).',
      '',
      '| grid point | cases | pass rate | exact | tone |',
      '| :-- | --: | --: | --: | --: |',
      '| ✅ model=large temperature=0 | 2 | 100.0% | 1.000 · 100.0% | 0.800 |',
      '| ❌ model=small temperature=0 | 6 | 16.7% | 0.400 · 40.0% | — |',
      '',
      '**2 runs (1 failed)** · 8 cases: 3 passed, 4 failed, 1 errored · 2.5s',
      '',
      '### ✅ capitals · model=large temperature=0',
      '',
      '| | mean | pass rate | passed | failed | errored |',
      '| :-- | --: | --: | --: | --: | --: |',
      '| **2 cases** |  | 100.0% | 2 | 0 | 0 |',
      '| exact | 1.000 | 100.0% | 2 | 0 | 0 |',
      '| tone | 0.800 | — | 0 | 0 | 0 |',
      '',
      '### ❌ capitals · model=small temperature=0',
      '',
      '| | mean | pass rate | passed | failed | errored |',
      '| :-- | --: | --: | --: | --: | --: |',
      '| **6 cases** |  | 16.7% | 1 | 4 | 1 |',
      '| exact | 0.400 | 40.0% | 2 | 3 | 0 |',
      '| tone | — | — | 0 | 1 | 1 |',
      '',
      '- ✗ minPassRate: expected ≥ 0.5, got 0.167',
      '',
      '<details><summary>5 failing cases (1 errored)</summary>',
      '',
      '- `2222abcdef0…` · `evals/testsets/capitals.csv:3` · **failed**',
      '  - exact 0 (needs ≥ 1) — expected "Paris", got "Lyon"',
      '',
      '  ```',
      '  {"answer":"Lyon"}',
      '  ```',
      '- `3333abcdef0…` · `evals/testsets/capitals.csv:4` · **failed**',
      '  - exact 0.79996 (needs ≥ 0.8)',
      '  - tone: error: judge timed out at line 2',
      '',
      '  ```',
      '  {"answer":"Capital 3"}',
      '  ```',
      '- `4444abcdef0…` · `evals/testsets/capitals.csv:5` · **errored**',
      '',
      '  ```',
      '  TypeError: boom',
      '      at answer (app/answer.ts:3:9)',
      '  ```',
      '- `5555abcdef0…` · no source · **failed**',
      '  - did not meet the pass condition',
      '',
      '  ```',
      '  {"answer":"Capital 5"}',
      '  ```',
      '- `6666abcdef0…` · `evals/testsets/capitals.csv:7` · **failed**',
      '  - exact 0.2 (needs &gt; 0.5, &lt; 0.9)',
      '',
      '  ```',
      '  {"answer":"Capital 6"}',
      '  ```',
      '',
      '</details>',
      '',
    ].join('\n');
    const doc = render(artifactOf(fixtureRuns()), { sourceRoot: 'evals' });
    assert.equal(doc, expected);
    assertSafeStructure(doc);
  });

  it('says pass, and interrupted (a fail) when the run was cut short', () => {
    const [passing] = fixtureRuns();
    assert.ok(passing);
    assert.match(
      render(artifactOf([passing])),
      /^## evals: evals\.yaml\n\n\*\*✅ Passed\*\*: all 2 cases pass\.$/m,
    );
    const interrupted = render(artifactOf([passing], { interrupted: true }));
    assert.match(
      interrupted,
      /^\*\*⚠️ Interrupted\*\*: the run was interrupted before every case finished; all 2 cases pass\.$/m,
    );
    assert.match(interrupted, /the verdict is \*\*fail\*\*/);
  });

  it('omits the marker when it is empty and adds the links when given', () => {
    const doc = render(artifactOf(fixtureRuns()), {
      marker: '',
      links: { run: 'https://github.com/o/r/actions/runs/1', checkRun: 'https://x/(y) z' },
    });
    assert.ok(doc.startsWith('## evals: evals.yaml\n\n**❌ Blocked**'));
    assert.match(
      doc,
      /^\[workflow run\]\(https:\/\/github\.com\/o\/r\/actions\/runs\/1\) · \[check run\]\(https:\/\/x\/%28y%29%20z\)$/m,
    );
  });

  it('renders a run with no cases and no evaluators', () => {
    const empty: RunResult = {
      ...failingRun(0),
      verdict: 'pass',
      gate: { conditions: [] },
      summary: { cases: 0, passed: 0, failed: 0, errored: 0, passRate: 1, evaluators: {} },
    };
    const doc = render(artifactOf([empty]));
    assert.match(doc, /\| \*\*0 cases\*\* \| {2}\| 100\.0% \| 0 \| 0 \| 0 \|/);
    assert.doesNotMatch(doc, /<details>/);
    const none = render(artifactOf([])).split('\n');
    assert.equal(none[3], '**✅ Passed**: no case ran.');
    assert.equal(none[5], '**0 runs** · 0 cases: 0 passed, 0 failed, 0 errored · 2.5s');
  });

  it('escapes every piece of user text', () => {
    const doc = render(artifactOf([nastyRun()]), { title: NASTY, sourceRoot: 'ev|als' });
    const prose = assertSafeStructure(doc);
    // The user text is there, shown rather than acted on.
    assert.match(prose, /&lt;\/summary&gt;&lt;\/details&gt;&lt;script&gt;/);
    assert.match(doc, /``ev\|als\/testsets\/`we\|ird`\.csv:3``/);
    assert.match(doc, /`@octocat`/);
    assert.match(doc, /\\u202e/);
    // The output's own fence line sits inside a longer fence.
    assert.match(doc, /^ {2}````\n {2}<\/summary><\/details><script>/m);
  });

  it('does not mention or link from ids, sources, reasons or params', () => {
    const run = fixtureRuns()[1];
    assert.ok(run);
    run.params = { who: '@octocat', ref: '#1' };
    run.cases = [
      caseResult(1, {
        id: '@octocat#1',
        passed: false,
        source: { file: '@team/#1.csv', line: 1 },
        evaluations: [
          evaluation('exact', 0, { gte: 1 }, { metadata: { reason: 'ask @octocat, see #1' } }),
        ],
      }),
    ];
    const doc = render(artifactOf([run]));
    assertSafeStructure(doc);
    assert.match(doc, new RegExp(`ask @${ZWJ}octocat, see \\\\#${ZWSP}1`));
  });

  it('reads a non-reason metadata string as key: value and shortens long outputs', () => {
    const run = failingRun(1, { outputChars: 5000 });
    const doc = render(artifactOf([run]));
    assert.match(doc, /exact 0 \(needs ≥ 1\) — row 1 did not match/);
    assert.match(doc, /… \(4,700 more characters\)\n {2}```/);
  });

  it('lists at most five failing evaluations per case', () => {
    const run = failingRun(1);
    const first = run.cases[0];
    assert.ok(first);
    first.evaluations = Array.from({ length: 8 }, (_, i) => evaluation(`e${i}`, 0, { gte: 1 }));
    const doc = render(artifactOf([run]));
    assert.match(doc, /- e4 0 \(needs ≥ 1\)\n {2}- … 3 more\n/);
    assert.doesNotMatch(doc, /e5 0/);
  });
});

describe('renderMarkdownReport from reduced cases', () => {
  it('reads the same from passing cases reduced as the reports keep them', () => {
    const current = fixtureRuns();
    const [passing] = current;
    assert.ok(passing);
    // A case that passed one trial of two: listed as flaky, which needs its trials.
    passing.cases.push(
      caseResult(9, {
        flaky: true,
        trialPassRate: 0.5,
        trials: [trialResult(true), trialResult(false)],
      }),
    );
    const full = artifactOf(current);
    // Every case whole: what the reports would read if nothing were reduced.
    const whole: ReportedArtifact = {
      ...full,
      runs: full.runs.map((run) => ({
        ...run,
        cases: run.cases.map((c) => ({ ...c, detailed: true })),
      })),
    };
    const kept = reported(full);
    for (const [r, run] of full.runs.entries()) {
      for (const [c, result] of run.cases.entries()) {
        const { detailed, ...held } = kept.runs[r]!.cases[c]!;
        if (result.passed && result.flaky !== true) {
          assert.deepEqual(held, comparableCases(run)(result));
          assert.equal(detailed, false);
        } else {
          assert.deepEqual(held, result);
          assert.equal(detailed, true);
        }
      }
    }
    const options = {
      title: 'evals: evals.yaml',
      marker: MARKER,
      maxChars: PR_COMMENT_MAX_CHARS,
      sourceRoot: '',
    };
    assert.equal(renderMarkdownReport(kept, options), renderMarkdownReport(whole, options));
    assert.match(render(full), /\*\*1 flaky case\*\*/);
    const annotationOptions = { sourceRoot: '', configPath: 'evals.yaml' };
    assert.deepEqual(
      buildAnnotations(kept, annotationOptions),
      buildAnnotations(whole, annotationOptions),
    );
  });
});
