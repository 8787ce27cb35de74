/**
 * The case lists of `evals compare --format md` (and the PR comment) count one thing: cases. A
 * case failing on two grid points is one row naming both, so the count in the heading, the rows
 * listed and `… N more` add up; the heading also says how many (case, grid point) pairs that is.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareArtifacts } from '../src/compare/compare.ts';
import { renderComparisonMarkdown } from '../src/report/comparison-markdown.ts';
import { caseText } from '../src/report/comparison-wording.ts';
import { summarizeRun } from '../src/run/summary.ts';
import type { RunRef } from '../src/types/comparison.ts';
import type { CaseResult, ResultsArtifact, RunResult } from '../src/types/index.ts';
import { artifactOf } from './report-fixture-large.ts';
import { exactCase } from './report-fixture.ts';

const CASES = 40;

/** Case n: fails `exact` with output `actual` when given, else passes. */
function qaCase(n: number, actual: string | null): CaseResult {
  return exactCase(n, `question-${String(n).padStart(4, '0')}`, actual);
}

function gridRun(mode: string, actual: (n: number) => string | null): RunResult {
  const cases = Array.from({ length: CASES }, (_, i) => qaCase(i + 1, actual(i + 1)));
  const summary = summarizeRun(cases, ['exact']);
  return {
    suite: 'qa',
    params: { mode },
    testset: { path: 'testsets/qa.csv', ref: null, commit: null, revision: 'r', cases: CASES },
    verdict: summary.failed > 0 ? 'fail' : 'pass',
    gate: { conditions: [] },
    summary,
    cases,
  };
}

/**
 * HEAD regresses 14 cases at mode=good (1…14) and 10 at mode=bad (1…10): 14 cases, 24 pairs.
 * On mode=bad the odd cases answer differently from mode=good, so they fail for another reason.
 */
function comparison(): { head: ResultsArtifact; markdown: (max?: number) => string } {
  const base = artifactOf([gridRun('good', () => null), gridRun('bad', () => null)]);
  const head = artifactOf([
    gridRun('good', (n) => (n <= 14 ? `wrong ${n}` : null)),
    gridRun('bad', (n) => (n <= 10 ? (n % 2 === 0 ? `wrong ${n}` : `other ${n}`) : null)),
  ]);
  const compared = compareArtifacts(base, head);
  const headCase = (run: RunRef, id: string): CaseResult | undefined =>
    head.runs
      .find((r) => r.params.mode === run.params.mode)
      ?.cases.find((result) => result.id === id);
  return {
    head,
    markdown: (max) =>
      renderComparisonMarkdown(compared, { headCase, statistics: false, maxListedCases: max }),
  };
}

/**
 * The rows of the table under `**Newly failing …:**`, why they are an alarm (the list under the
 * heading), and what follows the table.
 */
function newlyFailing(markdown: string): {
  heading: string;
  reasons: string[];
  rows: string[];
  after: string;
} {
  const match =
    /\*\*(Newly failing[^\n]*)\*\*\n\n(?:An alarm because:\n((?:- [^\n]*\n)+)\n)?((?:\|[^\n]*\n)+)\n?([^\n]*)/.exec(
      markdown,
    );
  assert.ok(match, markdown);
  const reasons = (match[2] ?? '')
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(2));
  const rows = (match[3] ?? '').trimEnd().split('\n').slice(2);
  return { heading: match[1] ?? '', reasons, rows, after: match[4] ?? '' };
}

describe('the newly failing list over suites', () => {
  it('keeps apart two suites whose inline cases share an id', () => {
    const inline = (suite: string, failing: boolean): RunResult => {
      const cases = [{ ...qaCase(1, failing ? `wrong ${suite}` : null), id: 'q1', source: null }];
      const summary = summarizeRun(cases, ['exact']);
      return {
        suite,
        params: {},
        testset: { path: null, ref: null, commit: null, revision: 'r', cases: 1 },
        verdict: failing ? 'fail' : 'pass',
        gate: { conditions: [] },
        summary,
        cases,
      };
    };
    const base = artifactOf([inline('billing', false), inline('support', false)]);
    const head = artifactOf([inline('billing', true), inline('support', true)]);
    const markdown = renderComparisonMarkdown(compareArtifacts(base, head), { statistics: false });
    const { heading, reasons, rows } = newlyFailing(markdown);
    // Each suite passed its gate in BASE and fails now, with one paired case: said once for both,
    // under a heading that stays short.
    assert.equal(heading, 'Newly failing (2):');
    assert.deepEqual(reasons, [
      'at each of the 2 grid points: passed its gate in BASE and fails it now; too few paired cases to tell these flips from noise',
    ]);
    assert.equal(rows.length, 2, rows.join('\n'));
  });
});

describe('the newly failing list over grid points', () => {
  const { markdown } = comparison();

  it('counts cases in the heading, the rows and "… N more" alike, and says the pairs', () => {
    const { heading, reasons, rows, after } = newlyFailing(markdown());
    assert.equal(heading, 'Newly failing (14 cases, 24 counting each grid point):');
    assert.deepEqual(reasons, [
      'at each of the 2 grid points: passed its gate in BASE and fails it now; pass rate regressed; exact regressed',
    ]);
    assert.equal(rows.length, 10);
    assert.equal(after, '… 4 more');
  });

  it('lists every case once when they all fit, naming each grid point it fails on', () => {
    const { rows, after } = newlyFailing(markdown(20));
    assert.equal(rows.length, 14);
    assert.notEqual(after, '… 0 more');
    assert.doesNotMatch(after, /more/);
    const ids = rows.map((row) => /`(question-\d+)`/.exec(row)?.[1]);
    assert.equal(new Set(ids).size, 14, 'no case twice');
    const both = rows.filter((row) => /mode=good, mode=bad|mode=bad, mode=good/.test(row));
    assert.equal(both.length, 10);
  });

  it('gives one reason when the grid points agree, and each one after its points otherwise', () => {
    const { rows } = newlyFailing(markdown(20));
    const row = (id: string): string => rows.find((r) => r.includes(`\`${id}\``)) ?? '';
    // question-0002 fails the same way on both points: the reason once, with no point before it.
    assert.match(row('question-0002'), /\| exact 0 \(needs ≥ 1\)[^|]*got "wrong 2" \|$/);
    assert.doesNotMatch(row('question-0002'), /mode=\w+: /);
    // question-0001 answers differently on mode=bad.
    assert.match(row('question-0001'), /mode=good: [^|]*got "wrong 1"/);
    assert.match(row('question-0001'), /mode=bad: [^|]*got "other 1"/);
  });

  it('names a case by its whole dedup id, and a hash id by 12 characters', () => {
    const ref = { id: 'question-0001', source: null };
    assert.equal(caseText(ref).id, 'question-0001');
    assert.equal(caseText({ id: 'f'.repeat(64), source: null }).id, `${'f'.repeat(11)}…`);
  });
});
