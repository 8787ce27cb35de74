/**
 * The markdown report within its size budget (the PR comment's and the job summary's: what is
 * cut first, a valid document at every budget), and model usage in the reports.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  // The renderer budgets characters; a job summary of 1 MiB of UTF-8 has at most that many.
  JOB_SUMMARY_MAX_BYTES as JOB_SUMMARY_MAX_CHARS,
  PR_COMMENT_MAX_CHARS,
} from '../src/report/github-limits.ts';
import { renderSummary } from '../src/report/summary-table.ts';
import { fixtureRuns } from './report-fixture.ts';
import { artifactOf, failingRun, NASTY, nastyRun, passingRun } from './report-fixture-large.ts';
import { assertSafeStructure, MARKER, render } from './helpers/markdown-report.ts';

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
    assert.match(text, /cost: unknown \(no price for a model used, or tokens not reported\)/);
  });
});
