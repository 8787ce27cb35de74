/**
 * Rendering a comparison: the footnote on how a block is decided, and the text, markdown and JSON
 * renderers (deterministic, regressions first, user text escaped).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { compareArtifacts } from '../src/compare/compare.ts';
import { renderComparisonJson } from '../src/report/comparison.ts';
import { renderComparisonMarkdown } from '../src/report/comparison-markdown.ts';
import { renderComparisonText } from '../src/report/comparison-text.ts';
import type { Comparison } from '../src/types/comparison.ts';
import type { ResultsArtifact, RunResult } from '../src/types/index.ts';
import { artifact, noisyPair, run } from './helpers/compare-builder.ts';

describe('the footnote of a comparison', () => {
  it('says how a block is decided over the rows tested, and says so when none changed', () => {
    const [base, head] = noisyPair(1, 200, 0);
    const tested = compareArtifacts(base, head);
    assert.ok(tested.family.rows > 0);
    assert.match(
      renderComparisonText(tested, { color: false }),
      new RegExp(`A block needs Holm p < 0\\.05 over all ${tested.family.rows} rows`),
    );
    // Nothing changed: no row is tested, so the family is empty.
    const untested = compareArtifacts(base, structuredClone(base));
    assert.equal(untested.family.rows, 0);
    const text = renderComparisonText(untested, { color: false });
    assert.match(text, /No row had a changed case to test, so no change could block\./);
    assert.doesNotMatch(text, /over all 0 rows/);
  });
});

describe('rendering', () => {
  function mixedComparison(): Comparison {
    const [base, head] = noisyPair(7, 120, 0.15);
    const [base2, head2] = noisyPair(8, 120, -0.15);
    const rename = (a: ResultsArtifact, suite: string): RunResult[] =>
      a.runs.map((r) => ({ ...r, suite }));
    const extra = Array.from({ length: 4 }, (_, i) => ({ id: `x${i}`, scores: { quality: 0.5 } }));
    return compareArtifacts(
      artifact([
        ...rename(base, 'better'),
        ...rename(base2, 'worse'),
        run('tiny', {}, extra),
        run('gone', {}, extra),
      ]),
      artifact(
        [
          ...rename(head, 'better'),
          ...rename(head2, 'worse'),
          run('tiny', {}, extra),
          run('new', {}, extra),
        ],
        'b'.repeat(40),
      ),
    );
  }

  it('gives byte-identical text, markdown and JSON for identical inputs', () => {
    const first = mixedComparison();
    const second = mixedComparison();
    assert.equal(renderComparisonJson(first), renderComparisonJson(second));
    assert.equal(renderComparisonMarkdown(first), renderComparisonMarkdown(second));
    assert.equal(
      renderComparisonText(first, { color: false }),
      renderComparisonText(second, { color: false }),
    );
    assert.equal(
      renderComparisonText(first, { color: true }),
      renderComparisonText(second, { color: true }),
    );
    // The JSON is the model, except that a row too small to test has no interval (`noInterval`
    // says why, compare-missing-and-untestable.test.ts): both read alike without intervals.
    const parsed = JSON.parse(renderComparisonJson(first)) as Comparison;
    assert.deepEqual(withoutIntervals(parsed), withoutIntervals(first));
    const small = parsed.runs
      .flatMap((r) => [r.passRate, ...r.evaluators])
      .filter((r) => r.paired <= 5);
    assert.ok(small.length > 0, 'the fixture has rows too small to test');
    for (const row of small) assert.equal(row.ci, null);
  });

  it('puts regressions first, with the counts on top and the row format of the issue', () => {
    const comparison = mixedComparison();
    const markdown = renderComparisonMarkdown(comparison);
    const lines = markdown.split('\n');
    assert.match(
      lines[0] ?? '',
      /^Compared with `evals\.yaml` at `aaaaaaa` on `main` \(2024-05-01\): \*\*\d+ regressions?\*\* · \d+ improvements? · /,
    );
    const worse = markdown.indexOf('#### worse');
    const better = markdown.indexOf('#### better');
    assert.ok(worse !== -1 && better !== -1 && worse < better, 'the regressed run comes first');
    assert.match(
      markdown,
      /- 🟢 quality: 0\.\d{3} → 0\.\d{3} \(\+0\.1\d\d, 95% CI \+0\.\d{3}…\+0\.\d{3}\) improved · p < 0\.001/,
    );
    assert.match(
      markdown,
      /- 🔴 quality: 0\.\d{3} → 0\.\d{3} \(-0\.1\d\d, 95% CI -0\.\d{3}…-0\.\d{3}\) \*\*regressed\*\*/,
    );
    // Newly failing cases are a table: the case, its grid point, its source and why it fails,
    // under a short heading and why they are an alarm, a line each.
    assert.match(
      markdown,
      /\*\*Newly failing \(\d+\):\*\*\n\nAn alarm because:\n- pass rate regressed, Holm p = 0\.\d{3}\n(?:- [^\n]*\n)*\n\| case \| grid point \| source \| why it fails now \|\n\| :-- \| :-- \| :-- \| :-- \|\n\| `case-\d+` \| worse · model=small \| `testsets\/qa\.csv:\d+` \| — \|/,
    );
    // One compact table of every grid point × row on top, regressions first.
    assert.match(
      markdown,
      /\n\| grid point \| row \| base → head \| Δ \| change \|\n\| :-- \| :-- \| --: \| --: \| :-- \|\n\| worse · model=small \| [^\n]* \| 🔴 \*\*regressed\*\* \|\n/,
    );
    assert.match(
      markdown,
      // Four cases cannot reach 5% whatever they show: no interval is quoted.
      /quality: 0\.500 → 0\.500 \(0\.000, no interval: 4 cases are too few to test\) too few cases · \(4 paired\)/,
    );
    assert.match(markdown, /\*\*Runs only in BASE \(not run in HEAD\):\*\*\n\n- gone/);
    assert.match(markdown, /\*\*Runs only in HEAD \(new, nothing to compare with\):\*\*\n\n- new/);
    // Within the regressed run, the regressed rows come before anything else.
    const section = markdown.slice(worse, better);
    const firstRow = section.split('\n').find((line) => line.startsWith('- '));
    assert.match(firstRow ?? '', /regressed/);

    const listed = (md: string): number =>
      (
        /\*\*Newly failing[^\n]*\n\n(?:An alarm because:\n(?:- [^\n]*\n)+\n)?((?:\|[^\n]*\n)+)/.exec(
          md,
        )?.[1] ?? ''
      ).split('\n').length - 3;
    assert.equal(listed(markdown), 10);
    assert.match(markdown, /\| — \|\n\n… \d+ more\n/);
    const short = renderComparisonMarkdown(comparison, { maxListedCases: 2 });
    assert.equal(listed(short), 2);

    const text = renderComparisonText(comparison, { color: false });
    assert.match(
      text,
      /^BASE evals\.yaml · aaaaaaa \(main\) · 2024-05-01\nHEAD evals\.yaml · bbbbbbb \(main\) · 2024-05-01\n\d+ regressions? · /,
    );
    assert.ok(text.indexOf('worse') < text.indexOf('better'));
    assert.match(
      text,
      /newly failing \(\d+\)\n {4}an alarm because:\n {6}- pass rate regressed, Holm p = 0\.\d{3}\n(?: {6}- [^\n]*\n)* {4}case-\d+ +testsets\/qa\.csv:\d+/,
    );
    assert.ok(!text.includes('\x1b['));
    assert.ok(renderComparisonText(comparison, { color: true }).includes('\x1b[31m'));
  });

  it('escapes user text in markdown and terminal output', () => {
    const cases = Array.from({ length: 10 }, (_, i) => ({
      id: i === 0 ? 'a`b``c' : `c${i}`,
      scores: { '<b>x</b>|@team': 0.9 },
    }));
    const headCases = cases.map((spec, i) => ({
      ...spec,
      scores: { '<b>x</b>|@team': i === 0 ? 0.1 : 0.9 },
    }));
    const comparison = compareArtifacts(
      artifact([run('<img src=x>', { 'a|b': '#1 @me' }, cases)]),
      artifact([run('<img src=x>', { 'a|b': '#1 @me' }, headCases)]),
    );
    const markdown = renderComparisonMarkdown(comparison);
    assert.doesNotMatch(markdown, /<img|<b>/);
    assert.match(markdown, /&lt;img src=x&gt;/);
    assert.match(markdown, /&lt;b&gt;x&lt;\/b&gt;\\\|@\u200dteam/);
    assert.match(markdown, /```a`b``c```/);

    const terminal = compareArtifacts(
      artifact([run('evil\x1b[2J\nsuite', {}, cases)]),
      artifact([run('evil\x1b[2J\nsuite', {}, headCases)]),
    );
    const text = renderComparisonText(terminal, { color: false });
    assert.ok(!text.includes('\x1b'));
    // The line break shows as one too, not as a space (`a\nb` and `a b` must not read alike).
    assert.match(text, /evil\\u001b\[2J\\u000asuite/);
  });
});

/** `comparison` as JSON reads it, with `ci` and `noInterval` left out of rows of 5 cases or fewer. */
function withoutIntervals(comparison: Comparison): unknown {
  const bare = <T extends { paired: number }>(row: T): T =>
    row.paired > 5 ? row : { ...row, ci: undefined, noInterval: undefined };
  return JSON.parse(
    JSON.stringify({
      ...comparison,
      runs: comparison.runs.map((run) => ({
        ...run,
        passRate: bare(run.passRate),
        evaluators: run.evaluators.map(bare),
      })),
    }),
  ) as unknown;
}
