/**
 * The PR comment reads in five seconds: rendered by cmark-gfm (GitHub's renderer, installed by
 * scripts/install-test-deps.sh) and checked on the HTML: the first paragraph is the verdict
 * sentence, then one table of the comparison (grid point × row: base → head, Δ, label); newly
 * failing cases are a table with the reason; a multi-line expected value keeps its lines; a
 * failure repeated on two grid points is shown once, naming both; counts have separators.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareArtifacts } from '../src/compare/compare.ts';
import { truncateText } from '../src/evaluators/metadata.ts';
import { renderComparisonMarkdown } from '../src/report/comparison-markdown.ts';
import { PR_COMMENT_MAX_CHARS } from '../src/report/github-limits.ts';
import { renderMarkdownReport } from '../src/report/markdown.ts';
import { summarizeRun } from '../src/run/summary.ts';
import type { CaseResult, ResultsArtifact, RunResult } from '../src/types/index.ts';
import { reported } from './helpers/cases.ts';
import { evaluation, exactCase } from './report-fixture.ts';
import { artifactOf } from './report-fixture-large.ts';
import { renderGfm } from './helpers/gfm.ts';

const CASES = 30;

/** Case n of a grid point: passes `exact` unless `failing` says otherwise. */
function qaCase(n: number, failing: boolean, extra: Partial<CaseResult> = {}): CaseResult {
  return exactCase(n, `q-${String(n).padStart(3, '0')}`, failing ? `wrong ${n}` : null, extra);
}

function gridRun(model: string, cases: CaseResult[]): RunResult {
  const summary = summarizeRun(cases, ['exact']);
  return {
    suite: 'qa',
    params: { model },
    testset: { path: 'testsets/qa.csv', ref: null, commit: null, revision: 'r', cases: CASES },
    verdict: summary.failed + summary.errored > 0 ? 'fail' : 'pass',
    gate: {
      conditions: [
        {
          name: 'all cases pass',
          expected: '0 failed',
          actual: `${summary.failed} failed`,
          passed: summary.failed === 0,
        },
      ],
    },
    summary,
    cases,
  };
}

/** BASE: everything passes but q-001 on model=b. */
function baseArtifact(): ResultsArtifact {
  const all = (model: string, failing: (n: number) => boolean): RunResult =>
    gridRun(
      model,
      Array.from({ length: CASES }, (_, i) => qaCase(i + 1, failing(i + 1))),
    );
  return artifactOf([all('a', () => false), all('b', (n) => n === 1)]);
}

/**
 * HEAD: model=a regresses (q-001…q-012 fail), with q-002 failing on a multi-line expected
 * value and q-003's long output; model=b still fails q-001, the same way as model=a does.
 */
function headArtifact(): ResultsArtifact {
  const a = Array.from({ length: CASES }, (_, i) => {
    const n = i + 1;
    if (n === 2) {
      return qaCase(n, true, {
        evaluations: [
          evaluation(
            'exact',
            0,
            { gte: 1 },
            { metadata: { expected: 'first line\nsecond line', actual: 'one line' } },
          ),
        ],
      });
    }
    if (n === 3) return qaCase(n, true, { output: 'x'.repeat(5300) });
    return qaCase(n, n <= 12);
  });
  const b = Array.from({ length: CASES }, (_, i) => qaCase(i + 1, i === 0));
  return artifactOf([gridRun('a', a), gridRun('b', b)]);
}

/** The PR comment for `artifact` in at most `maxChars` characters, as the Action renders it. */
function prComment(artifact: ResultsArtifact, maxChars = PR_COMMENT_MAX_CHARS): string {
  return renderMarkdownReport(reported(artifact), {
    title: 'evals: evals.yaml',
    marker: '<!-- evalgate: evals.yaml -->',
    maxChars,
    sourceRoot: '',
  });
}

function comment(): { markdown: string; html: string } {
  const head = headArtifact();
  head.comparison = compareArtifacts(baseArtifact(), head);
  const markdown = prComment(head);
  return { markdown, html: renderGfm(markdown) };
}

/** The text of an HTML fragment, tags dropped and the entities the tests meet decoded. */
function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** The table whose header row holds `header`, as rows of cell texts. */
function tableWith(html: string, header: string): string[][] {
  const table = (html.match(/<table>[\s\S]*?<\/table>/g) ?? []).find((t) =>
    text(t.match(/<thead>[\s\S]*?<\/thead>/)?.[0] ?? '').includes(header),
  );
  assert.ok(table, `a table with the column "${header}"`);
  return (table.match(/<tr>[\s\S]*?<\/tr>/g) ?? []).map((row) =>
    (row.match(/<t[hd][^>]*>[\s\S]*?<\/t[hd]>/g) ?? []).map((cell) => text(cell).trim()),
  );
}

describe('the PR comment at a glance, rendered by cmark-gfm', () => {
  const { markdown, html } = comment();

  it('opens with one sentence giving the verdict, right under the title', () => {
    const first = /<p>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '';
    assert.equal(
      text(first),
      '❌ Blocked: the pass rate and 1 evaluator regressed on 1 of 2 grid points; ' +
        'the gate failed on 2 of 2 grid points; 13 of 60 cases fail.',
    );
    // The heading, the sentence, then the table: nothing else in between.
    assert.match(html, /^<h2>evals: evals\.yaml<\/h2>\n<p>[^\n]*<\/p>\n<table>/m);
  });

  it('counts in the sentence only the regressions the gate counts (significant after correction)', () => {
    const head = headArtifact();
    const comparison = compareArtifacts(baseArtifact(), head);
    // Every row keeps its own label, but none survives the correction over the family.
    for (const run of comparison.runs) {
      for (const row of [run.passRate, ...run.evaluators]) row.significant = false;
    }
    comparison.family = { ...comparison.family, regressions: 0, improvements: 0 };
    head.comparison = comparison;
    const markdown = prComment(head);
    const html = renderGfm(markdown);
    const first = text(/<p>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '');
    assert.match(first, /no significant change against the baseline/);
    assert.doesNotMatch(first, /regressed/);
    // Nor does the table flag in red what the gate does not count: a possible regression, first.
    const rows = tableWith(html, 'base → head');
    const possible = `🟡 possible regression (not significant over ${comparison.family.rows} rows)`;
    assert.deepEqual(
      rows.slice(1, 3).map((row) => row[4]),
      [possible, possible],
    );
    assert.doesNotMatch(html, /🔴/);
    assert.match(text(html), /0 regressions · 2 possible regressions · 0 improvements/);
  });

  it('then one table of the comparison: grid point × row, base → head, Δ and the label', () => {
    const rows = tableWith(html, 'base → head');
    assert.deepEqual(rows[0], ['grid point', 'row', 'base → head', 'Δ', 'change']);
    assert.deepEqual(rows[1], [
      'model=a',
      'pass rate',
      '100.0% → 60.0%',
      '-40.0 pp',
      '🔴 regressed',
    ]);
    assert.deepEqual(rows[2], ['model=a', 'exact', '1.000 → 0.600', '-0.400', '🔴 regressed']);
    assert.deepEqual(rows.slice(3), [
      ['model=b', 'pass rate', '96.7% → 96.7%', '0.0 pp', '⚪ unchanged'],
      ['model=b', 'exact', '0.967 → 0.967', '0.000', '⚪ unchanged'],
    ]);
  });

  it('lists newly failing cases as a table with the reason each fails now', () => {
    const rows = tableWith(html, 'why it fails now');
    assert.deepEqual(rows[0], ['case', 'grid point', 'source', 'why it fails now']);
    // In the words of the run's summary and the HTML report's why column.
    assert.deepEqual(rows[1], [
      'q-001',
      'model=a',
      'testsets/capitals.csv:2',
      'exact 0 (needs ≥ 1): expected "right 1", got "wrong 1"',
    ]);
    assert.equal(rows.length, 11, 'ten listed, the rest counted');
    assert.match(html, /<p>… 2 more<\/p>/);
  });

  it('keeps the lines of a multi-line expected value, in a block of its own', () => {
    assert.match(html, /<p>expected:<\/p>\n<pre><code>first line\nsecond line\n<\/code><\/pre>/);
    // Every line of user text in the markdown stays indented: none can be the sticky marker.
    assert.match(markdown, /^ {2}first line\n {2}second line$/m);
  });

  it('shows a failure repeated on two grid points once, naming both', () => {
    assert.equal(html.match(/<pre><code>wrong 1\n/g)?.length, 1, 'the output block once');
    assert.match(html, /<code>q-001<\/code> · [^\n]*on model=a, model=b<\/p>/);
    assert.match(html, /same output and reasons as on model=a/);
  });

  it('writes counts with thousands separators', () => {
    assert.match(html, /… \(5,000 more characters\)/);
    // Counts, not ids or seeds: none of them four digits or more without a separator.
    assert.doesNotMatch(text(html), /\b\d{4,} (more|cases?|characters|rows?|runs?)\b/);
    assert.equal(
      truncateText('y'.repeat(5_200), 200),
      `${'y'.repeat(200)}… (5,000 more characters)`,
    );
  });

  it('keeps every table row as wide as its header and <details> balanced', () => {
    for (const table of html.match(/<table>[\s\S]*?<\/table>/g) ?? []) {
      const widths = (table.match(/<tr>[\s\S]*?<\/tr>/g) ?? []).map(
        (row) => row.match(/<t[hd][ >]/g)?.length ?? 0,
      );
      assert.equal(new Set(widths).size, 1, `rows of different widths: ${widths.join(', ')}`);
    }
    assert.equal(html.match(/<details>/g)?.length, html.match(/<\/details>/g)?.length);
  });

  it('keeps `evals compare --format md` coherent: the same table, then the case tables', () => {
    const head = headArtifact();
    const md = renderComparisonMarkdown(compareArtifacts(baseArtifact(), head));
    const compared = renderGfm(md);
    assert.deepEqual(tableWith(compared, 'base → head')[1], tableWith(html, 'base → head')[1]);
    // Without HEAD's cases, the table names the case and where it is, with no reason.
    assert.deepEqual(tableWith(compared, 'why it fails now')[1], [
      'q-001',
      'model=a',
      'testsets/capitals.csv:2',
      '—',
    ]);
    assert.match(compared, /<summary>Statistics per grid point<\/summary>/);
  });
});

describe('the PR comment of a large comparison', () => {
  it('folds the unchanged rows, counts what it leaves out and fits in 65,536 characters', () => {
    const points = Array.from({ length: 60 }, (_, i) => `m${i}`);
    const runsOf = (broken: (point: number, n: number) => boolean): RunResult[] =>
      points.map((model, point) =>
        gridRun(
          model,
          Array.from({ length: CASES }, (_, i) => {
            const failing = broken(point, i + 1);
            return qaCase(i + 1, failing, failing ? { output: `wrong ${'z'.repeat(400)}` } : {});
          }),
        ),
      );
    const base = artifactOf(runsOf(() => false));
    // Every fifth grid point breaks 20 cases of 30.
    const head = artifactOf(runsOf((point, n) => point % 5 === 0 && n <= 20));
    head.comparison = compareArtifacts(base, head);
    const markdown = prComment(head);
    assert.ok(markdown.length <= PR_COMMENT_MAX_CHARS, `${markdown.length} characters`);
    const html = renderGfm(markdown);
    assert.equal(
      text(/<p>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? ''),
      '❌ Blocked: the pass rate and 1 evaluator regressed on 12 of 60 grid points; ' +
        'the gate failed on 12 of 60 grid points; 240 of 1,800 cases fail.',
    );
    const rows = tableWith(html, 'base → head').slice(1);
    assert.equal(rows.length, 24, 'the 24 regressed rows, the unchanged folded');
    assert.ok(rows.every((row) => row[4] === '🔴 regressed'));
    assert.match(html, /⚪ 96 unchanged rows folded/);
  });

  it('never points a repeated failure at an entry the size budget cut', () => {
    // model=a fails q-001…q-012; model=b fails only q-012, the same way. A small budget renders
    // b's one case before a's twelfth: that one must then be the entry shown whole.
    const a = Array.from({ length: CASES }, (_, i) => qaCase(i + 1, i < 12));
    const b = Array.from({ length: CASES }, (_, i) => qaCase(i + 1, i === 11));
    const artifact = artifactOf([gridRun('a', a), gridRun('b', b)]);
    let pointers = 0;
    for (let maxChars = 1200; maxChars <= 6000; maxChars += 100) {
      const markdown = prComment(artifact, maxChars);
      const pointer = /same output and reasons as on (model=\w)/.exec(markdown);
      if (pointer === null) continue;
      pointers++;
      assert.match(markdown, /wrong 12/, `at ${maxChars}: the output is shown once, whole`);
      assert.match(markdown, /on model=a, model=b/, `at ${maxChars}: the whole entry names both`);
    }
    assert.ok(pointers > 0, 'some budget renders the repeat as a pointer');
  });

  it('keeps the largest moves the test cannot call yet, and folds the rows that did not move', () => {
    // Ten grid points of 12 cases, too few for any change to be significant: point k loses
    // ⌊k/3⌋ cases, so seven points moved and the table should list the biggest drops first.
    const SMALL = 12;
    const runsOf = (failing: (point: number, n: number) => boolean): RunResult[] =>
      Array.from({ length: 10 }, (_, point) =>
        gridRun(
          `m${point}`,
          Array.from({ length: SMALL }, (_, i) => qaCase(i + 1, failing(point, i + 1))),
        ),
      );
    const base = artifactOf(runsOf(() => false));
    const head = artifactOf(runsOf((point, n) => n <= Math.floor(point / 3)));
    head.comparison = compareArtifacts(base, head);
    const table = renderComparisonMarkdown(head.comparison).split('\n');
    const rows = table.filter((line) => line.startsWith('| model='));
    assert.ok(
      // Each moved, and 12 cases could not have seen a 10-point change: not called unchanged.
      rows.every((row) => row.includes('⚪ not significant (underpowered: could detect')),
      'nothing is significant on 12 cases',
    );
    // 20 rows (pass rate and exact on 10 points): 7 points moved, 14 rows kept; 6 folded.
    assert.equal(rows.length, 14, table.join('\n'));
    assert.match(rows[0] ?? '', /^\| model=m9 \|/, 'the largest drop first');
    assert.ok(table.some((line) => line.includes('⚪ 6 unchanged rows folded')));
  });
});
