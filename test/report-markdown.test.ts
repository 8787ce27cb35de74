import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  // The renderer budgets characters; a job summary of 1 MiB of UTF-8 has at most that many.
  JOB_SUMMARY_MAX_BYTES as JOB_SUMMARY_MAX_CHARS,
  PR_COMMENT_MAX_CHARS,
} from '../src/report/github-limits.ts';
import { renderMarkdownReport, type MarkdownOptions } from '../src/report/markdown.ts';
import { codeBlock, codeSpan, escapeMarkdownText } from '../src/report/markdown-text.ts';
import { renderSummary } from '../src/report/summary-table.ts';
import type { ResultsArtifact, RunResult } from '../src/types/index.ts';
import { comparableCase } from '../src/compare/comparable.ts';
import type { ReportedArtifact } from '../src/report/reported-cases.ts';
import { reported } from './helpers/cases.ts';
import { buildAnnotations } from '../src/report/annotations.ts';
import { caseResult, evaluation, fixtureRuns, trialResult } from './report-fixture.ts';
import { artifactOf, failingRun, NASTY, nastyRun, passingRun } from './report-fixture-large.ts';

const MARKER = '<!-- evalgate: evals.yaml -->';
const ZWJ = '\u200d';
const ZWSP = '\u200b';

function render(artifact: ResultsArtifact, options: Partial<MarkdownOptions> = {}): string {
  return renderMarkdownReport(reported(artifact), {
    title: 'evals: evals.yaml',
    marker: MARKER,
    maxChars: PR_COMMENT_MAX_CHARS,
    sourceRoot: '',
    baseline: null,
    ...options,
  });
}

/**
 * Checks what GitHub would see, without a markdown parser: code blocks and code spans are
 * balanced and removed, and in what remains every `<` is one of the report's own tags, every
 * table row is as wide as its header, no line starts a heading or quote the report did not write, and
 * nothing can link, mention or reference. Returns the prose that was checked.
 */
function assertSafeStructure(doc: string): string {
  const prose: string[] = [];
  let fence: string | null = null;
  let details = 0;
  let headed = false;
  let tableWidth: number | undefined;
  for (const line of doc.split('\n')) {
    if (fence !== null) {
      const close = /^ *(`{3,}) *$/.exec(line);
      if (close?.[1] !== undefined && close[1].length >= fence.length) fence = null;
      continue;
    }
    const open = /^ *(`{3,})$/.exec(line);
    if (open?.[1] !== undefined) {
      fence = open[1];
      continue;
    }
    if (line === MARKER) continue;
    if (line.startsWith('<details>')) {
      assert.match(
        line,
        /^<details><summary>([\d,]+ failing cases?( \([\d,]+ errored\))?|Statistics per grid point|Other case changes: [^<>]*)<\/summary>$/,
      );
      details++;
      continue;
    }
    if (line === '</details>') {
      details--;
      assert.ok(details >= 0, 'a </details> without its <details>');
      continue;
    }
    const text = withoutCodeSpans(line);
    if (/^#/.test(text)) {
      assert.match(text, /^(## [^#]|### (✅|❌) |#### )/, `heading: ${line}`);
      assert.ok(line.startsWith('## ') ? !headed : true, `a second title: ${line}`);
      headed ||= line.startsWith('## ');
    }
    assert.doesNotMatch(text, /^\s*>/, `quote: ${line}`);
    // Every row of a table is as wide as its header.
    if (text.startsWith('|')) {
      tableWidth ??= unescapedPipes(text);
      assert.equal(unescapedPipes(text), tableWidth, `table row: ${line}`);
    } else tableWidth = undefined;
    prose.push(text);
  }
  assert.equal(fence, null, 'an unclosed code block');
  assert.equal(details, 0, 'an unclosed <details>');

  // Backslash escapes make the next character literal; drop them before looking for syntax.
  const literal = prose.join('\n').replace(/\\[\s\S]/g, '');
  assert.doesNotMatch(literal, /</, 'raw HTML');
  assert.doesNotMatch(literal, /\[|!\[/, 'a link or image');
  assert.doesNotMatch(literal, /@[a-z0-9]/i, 'a mention');
  assert.doesNotMatch(literal, /#\d|\bGH-\d/i, 'an issue reference');
  assert.doesNotMatch(literal, /:\/\/|\bwww\./i, 'an autolink');
  assert.doesNotMatch(literal, /&(?!(amp|lt|gt);)/, 'an entity the report did not write');
  return prose.join('\n');
}

/** The line with every code span removed (escaped backticks do not open one). */
function withoutCodeSpans(line: string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    const char = line[i] ?? '';
    if (char === '\\') {
      out += line.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (char !== '`') {
      out += char;
      i++;
      continue;
    }
    let run = 0;
    while (line[i + run] === '`') run++;
    const fence = '`'.repeat(run);
    let close = line.indexOf(fence, i + run);
    // A closer is a run of exactly the same length.
    while (close !== -1 && (line[close + run] === '`' || line[close - 1] === '`')) {
      close = line.indexOf(fence, close + 1);
    }
    assert.notEqual(close, -1, `an unclosed code span: ${line}`);
    out += ' ';
    i = close + run;
  }
  return out;
}

/** Pipes that GitHub's table parser splits on: those not preceded by an odd run of backslashes. */
function unescapedPipes(line: string): number {
  let count = 0;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '\\') {
      i++;
      continue;
    }
    if (line[i] === '|') count++;
  }
  return count;
}

describe('escapeMarkdownText', () => {
  const cases: [string, string, string][] = [
    ['plain text stays', 'exact 0.5 of 3', 'exact 0.5 of 3'],
    ['HTML', '</details><b>x</b> & co', '&lt;/details&gt;&lt;b&gt;x&lt;/b&gt; &amp; co'],
    ['an entity shows as written', '&#64;x', `&amp;\\#${ZWSP}64;x`],
    ['table pipes and backslashes', 'a|b\\|c', 'a\\|b\\\\\\|c'],
    ['newlines become spaces', 'one\ntwo\r\nthree\rfour\u2028five', 'one two three four five'],
    ['code and emphasis', '`x` *y* _z_ ~~w~~ $m$', '\\`x\\` \\*y\\* \\_z\\_ \\~\\~w\\~\\~ \\$m\\$'],
    ['links and images', '[a](b) ![c](d)', '\\[a\\](b) \\!\\[c\\](d)'],
    ['a heading', '# title', '\\# title'],
    ['a quote', '> quoted', '&gt; quoted'],
    ['a list', '- item', '\\- item'],
    ['a plus list', '+ item', '\\+ item'],
    ['an ordered list', '12. item', '12\\. item'],
    ['a number is not a list', '0.167', '0.167'],
    ['a setext underline', '===', '\\==='],
    ['mentions', '@octocat @org/team a@b.c', `@${ZWJ}octocat @${ZWJ}org/team a@${ZWJ}b.c`],
    ['issue references', '#12 GH-3 o/r#4 #x', `\\#${ZWSP}12 GH-${ZWSP}3 o/r\\#${ZWSP}4 \\#x`],
    ['autolinks', 'https://x.y www.x.y', `https:${ZWSP}//x.y www${ZWSP}.x.y`],
    ['controls and bidi', 'a\u0000b\u001bc\u202ed\te', 'a\\\\u0000b\\\\u001bc\\\\u202ed e'],
    ['a lone surrogate', 'a\ud800b', 'a\ufffdb'],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => assert.equal(escapeMarkdownText(input), expected));
  }

  it('leaves nothing of the nasty text active', () => {
    const escaped = escapeMarkdownText(NASTY);
    assert.doesNotMatch(escaped, /\n/);
    assertSafeStructure(`x ${escaped}`);
  });
});

describe('codeSpan', () => {
  const cases: [string, string, string][] = [
    ['plain', 'a b', '`a b`'],
    ['a backtick inside', 'a`b', '``a`b``'],
    ['a run of three', 'x```y``z', '````x```y``z````'],
    ['backticks at the ends get padding', '`x`', '`` `x` ``'],
    ['spaces at both ends are kept', ' x ', '`  x  `'],
    ['only spaces', '   ', '`   `'],
    ['empty', '', '` `'],
    ['newlines become spaces', 'a\nb', '`a b`'],
    ['HTML, mentions and pipes are inert in code', '<b>@x|#1', '`<b>@x|#1`'],
    ['controls show', 'a\u001bb', '`a\\u001bb`'],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => assert.equal(codeSpan(input), expected));
  }
});

describe('codeBlock', () => {
  it('fences with three backticks and indents every non-empty line', () => {
    assert.equal(codeBlock('a\n\n b', '  '), '  ```\n  a\n\n   b\n  ```');
  });

  it('uses a fence longer than any backtick run inside', () => {
    const block = codeBlock('```\nx ````` y\n```', '');
    assert.equal(block.split('\n')[0], '``````');
    assert.equal(block.split('\n').at(-1), '``````');
  });

  it('normalises carriage returns and shows controls', () => {
    assert.equal(codeBlock('a\r\nb\rc\u0007'), '```\na\nb\nc\\u0007\n```');
  });
});

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
      '  - tone: error: judge timed out …',
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

describe('renderMarkdownReport with a baseline', () => {
  function baselineRuns(): RunResult[] {
    const runs = fixtureRuns();
    const [passing, failing] = runs;
    assert.ok(passing && failing);
    // Before: case 2 passed (so it is newly failing now), case 1 failed (so it is fixed now).
    const case1 = failing.cases[0];
    const case2 = failing.cases[1];
    assert.ok(case1 && case2);
    case1.passed = false;
    case2.passed = true;
    failing.summary = {
      ...failing.summary,
      passRate: 0.5,
      evaluators: {
        exact: { count: 5, mean: 0.812, passed: 4, failed: 1, errors: 0, passRate: 0.8 },
      },
    };
    // Params in another key order: still the same run.
    failing.params = { temperature: 0, model: 'small' };
    runs.push({ ...passing, params: { model: 'medium', temperature: 0 } });
    return runs;
  }

  it('shows deltas, newly failing and fixed cases, new and no-longer-run runs', () => {
    const current = fixtureRuns();
    current.push({ ...passingRun({ model: 'huge' }), suite: 'capitals' });
    const baseline = artifactOf(baselineRuns(), {
      sha: 'a'.repeat(40),
      ref: 'main',
      startedAt: '2025-01-01T10:00:00Z',
    });
    const doc = render(artifactOf(current), { baseline });
    assertSafeStructure(doc);
    assert.match(
      doc,
      /^Compared with the baseline at `aaaaaaa` on `main` \(2025-01-01\): \*\*1 newly failing\*\* · 1 fixed · 1 new run · 1 no longer run$/m,
    );
    assert.match(
      doc,
      /\| \*\*6 cases\*\* \| {2}\| 50\.0% → 16\.7% \(-33\.3 pp\) \| 1 \| 4 \| 1 \|/,
    );
    assert.match(
      doc,
      /\| exact \| 0\.812 → 0\.400 \(-0\.412\) \| 80\.0% → 40\.0% \(-40\.0 pp\) \|/,
    );
    assert.match(doc, /\| tone \(new\) \| — \| — \| 0 \| 1 \| 1 \|/);
    // Unchanged values show once, with a zero delta.
    assert.match(doc, /\| exact \| 1\.000 \(±0\.000\) \| 100\.0% \(±0\.0 pp\) \|/);
    assert.match(doc, /^vs baseline: \*\*1 newly failing\*\* · 1 fixed$/m);
    assert.match(
      doc,
      /`2222abcdef0…` · `testsets\/capitals\.csv:3` · \*\*failed\*\* · newly failing/,
    );
    assert.match(doc, /`3333abcdef0…` · `testsets\/capitals\.csv:4` · \*\*failed\*\*\n/);
    assert.match(doc, /^### ✅ capitals · model=huge · new run$/m);
    assert.match(
      doc,
      /\*\*No longer run\*\* \(in the baseline only\):\n\n- capitals · model=medium temperature=0\n$/,
    );
  });

  it('marks cases the baseline run did not have as new', () => {
    const current = fixtureRuns();
    const baseRuns = fixtureRuns();
    const failing = baseRuns[1];
    assert.ok(failing);
    failing.cases = failing.cases.filter((result) => !result.id.startsWith('6666'));
    const doc = render(artifactOf(current), { baseline: artifactOf(baseRuns) });
    assert.match(doc, /`6666abcdef0…` · `testsets\/capitals\.csv:7` · \*\*failed\*\* · new case/);
    assert.match(doc, /^Compared with the baseline \(2025-01-02\): 0 newly failing · 0 fixed$/m);
  });

  it('does not match runs whose params differ deep inside', () => {
    const current = fixtureRuns();
    const baseRuns = fixtureRuns();
    const [run] = current;
    const [baseRun] = baseRuns;
    assert.ok(run && baseRun);
    run.params = { model: { name: 'large', size: [1, 2] } };
    baseRun.params = { model: { size: [1, 2], name: 'large' } };
    const matched = render(artifactOf(current), { baseline: artifactOf(baseRuns) });
    assert.doesNotMatch(matched, /new run|No longer run/);
    baseRun.params = { model: { name: 'large', size: [1, 3] } };
    const unmatched = render(artifactOf(current), { baseline: artifactOf(baseRuns) });
    assert.match(unmatched, /1 new run · 1 no longer run/);
  });

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
          assert.deepEqual(held, comparableCase(result));
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
    const baseline = artifactOf(baselineRuns());
    const keptBaseline = {
      ...baseline,
      runs: baseline.runs.map((run) => ({ ...run, cases: run.cases.map(comparableCase) })),
    };
    assert.equal(
      renderMarkdownReport(kept, { ...options, baseline: keptBaseline }),
      renderMarkdownReport(whole, { ...options, baseline }),
    );
    assert.equal(
      renderMarkdownReport(kept, { ...options, baseline: null }),
      renderMarkdownReport(whole, { ...options, baseline: null }),
    );
    assert.match(render(full), /\*\*1 flaky case\*\*/);
    const annotationOptions = { sourceRoot: '', configPath: 'evals.yaml' };
    assert.deepEqual(
      buildAnnotations(kept, annotationOptions),
      buildAnnotations(whole, annotationOptions),
    );
  });
});

describe('renderMarkdownReport size budget', () => {
  it('fits 5,000 failing cases with long outputs in a PR comment and says what was cut', () => {
    const artifact = artifactOf([failingRun(5000, { outputChars: 2000 })]);
    const doc = render(artifact);
    assert.ok(doc.length <= PR_COMMENT_MAX_CHARS, `${doc.length} characters`);
    const cut = /^… ([\d,]+) more failing cases? not shown \(see the results artifact\)$/m.exec(
      doc,
    );
    assert.ok(cut?.[1], 'no cut note');
    const shown = (doc.match(/^- `case-\d+`/gm) ?? []).length;
    assert.ok(shown >= 50, `only ${shown} cases shown`);
    assert.equal(Number(cut[1].replace(/,/g, '')), 5000 - shown);
    assert.match(doc, /<summary>5,000 failing cases<\/summary>/);
    // Most of the budget is used: the search does not give up early.
    assert.ok(doc.length > PR_COMMENT_MAX_CHARS - 3000, `${doc.length} characters`);
    assertSafeStructure(doc);
  });

  it('fits the job summary budget too', () => {
    const doc = render(artifactOf([failingRun(5000, { outputChars: 2000 })]), {
      maxChars: JOB_SUMMARY_MAX_CHARS,
    });
    assert.ok(doc.length <= JOB_SUMMARY_MAX_CHARS);
    assert.ok(doc.length > JOB_SUMMARY_MAX_CHARS - 5000);
    assertSafeStructure(doc);
  });

  it('produces a valid document at every budget, down to nothing', () => {
    const artifact = artifactOf([
      failingRun(40, { params: { model: 'a' } }),
      passingRun({ model: 'b' }, 8),
      ...fixtureRuns(),
      nastyRun(),
    ]);
    const full = render(artifact, { maxChars: Infinity });
    for (let maxChars = 0; maxChars < full.length + 100; maxChars += 97) {
      const doc = render(artifact, { maxChars, title: NASTY });
      assert.ok(doc.length <= maxChars, `${doc.length} > ${maxChars}`);
      assertSafeStructure(doc);
    }
    const tiny = render(artifact, { maxChars: 2000 });
    assert.ok(tiny.startsWith(`${MARKER}\n## `));
    assert.match(tiny, /^\*\*❌ Blocked\*\*: /m);
    assert.match(tiny, /not shown/);
  });

  it('cuts failing cases first, then passing runs’ evaluator rows, then failing runs’ rows, then runs', () => {
    const artifact = artifactOf([
      passingRun({ model: 'a' }, 6),
      failingRun(30, { params: { model: 'b' }, outputChars: 400 }),
    ]);
    let previous = { runs: 0, failingRows: false, passingRows: false, cases: 0 };
    for (let maxChars = 300; maxChars < 40_000; maxChars += 50) {
      const doc = render(artifact, { maxChars });
      const shown = {
        runs: (doc.match(/^### /gm) ?? []).length,
        failingRows: /^\| exact \|/m.test(doc),
        passingRows: /^\| evaluator-1 \|/m.test(doc),
        cases: (doc.match(/^- `case-/gm) ?? []).length,
      };
      if (shown.cases > 0 || shown.passingRows) assert.ok(shown.failingRows, `at ${maxChars}`);
      if (shown.cases > 5) assert.ok(shown.passingRows, `at ${maxChars}`);
      if (shown.runs === 1) assert.match(doc, /^### ❌/m, 'the failing run is kept first');
      // A bigger budget never shows less.
      assert.ok(shown.runs >= previous.runs && shown.cases >= previous.cases, `at ${maxChars}`);
      previous = shown;
    }
    assert.equal(previous.cases, 30);
  });

  it('counts hidden runs, and says how many of them failed', () => {
    const runs = Array.from({ length: 300 }, (_, i) =>
      i % 3 === 0 ? failingRun(2, { params: { point: i } }) : passingRun({ point: i }, 4),
    );
    const doc = render(artifactOf(runs));
    assert.ok(doc.length <= PR_COMMENT_MAX_CHARS);
    const hidden = /^… ([\d,]+) more runs? not shown(?:, ([\d,]+) of them failing)?/m.exec(doc);
    const shownRuns = (doc.match(/^### /gm) ?? []).length;
    const shownFailing = (doc.match(/^### ❌/gm) ?? []).length;
    if (hidden) {
      assert.equal(Number(hidden[1]) + shownRuns, 300);
      assert.equal(Number(hidden[2] ?? 0) + shownFailing, 100);
    } else {
      assert.equal(shownRuns, 300);
    }
    assert.equal(shownFailing, Math.min(100, shownRuns), 'failing runs are shown first');
  });
});

describe('model usage in the reports', () => {
  const usage = {
    calls: 12,
    cacheHits: 4,
    promptTokens: 2100,
    completionTokens: 350,
    cost: 0.0016,
    latencyMs: 3200,
  };
  const cached = {
    ...usage,
    calls: 0,
    cacheHits: 16,
    promptTokens: 0,
    completionTokens: 0,
    cost: 0,
    latencyMs: 0,
  };

  it('the PR comment says what model calls cost, or that the cache served them all', () => {
    const spent = { ...artifactOf([passingRun({})]), usage };
    assert.match(
      render(spent),
      /model calls: 16 \(4 from the cache\) · tokens: 2,100 prompt \+ 350 completion · cost: \\\$0\.0016 · time in calls: 3\.2 s/,
    );
    assert.match(
      render({ ...artifactOf([passingRun({})]), usage: cached }),
      /model calls: 16, all from the cache/,
    );
    assert.doesNotMatch(render(artifactOf([passingRun({})])), /model calls/);
  });

  it('the terminal summary shows each run and, with several, their sum; an unknown price says so', () => {
    const [first, second] = [passingRun({}), passingRun({})];
    const runs = [
      { ...first, summary: { ...first.summary, usage } },
      { ...second, summary: { ...second.summary, usage: { ...usage, cost: null } } },
    ];
    const text = renderSummary(runs, { color: false, width: 200 });
    assert.equal(text.match(/model calls: 16 \(4 from the cache\)/g)?.length, 2);
    assert.match(text, /all runs: model calls: 32 \(8 from the cache\) · tokens: 4,200 prompt/);
    assert.match(text, /cost: unknown \(no price for a model used\)/);
  });
});
