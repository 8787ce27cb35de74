/**
 * The GitHub Action end to end on a pull request: the committed dist/index.js, copied where a
 * runner would check the action out (no node_modules beside it), run as a child process with the
 * runner's environment against a GitHub REST API server on 127.0.0.1 (`helpers/action-run.ts`):
 * the comment, the check run and its annotations, and `baseline: auto`. How it copes with
 * GitHub's own behaviour (app tokens, matrix legs, retries) is in action-github.test.ts.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { addResultsArtifact, cliResults, useActionFixture } from './helpers/action-fixture.ts';
import { breakProjectFiles, EXACT } from './helpers/break-project.ts';
import { fileErrors, HEAD_SHA, ONE_FAILING, suiteFiles, workspace } from './helpers/action-run.ts';

/**
 * The markdown outside fenced code blocks and code spans (where GitHub renders nothing as markup),
 * and whether every fence was closed: a fence closes on a line of at least as many backticks.
 */
function outsideCode(markdown: string): { text: string; fencesClosed: boolean } {
  const kept: string[] = [];
  let fence = 0;
  for (const line of markdown.split('\n')) {
    const ticks = /^\s*(`{3,})\s*\S*\s*$/.exec(line)?.[1]?.length ?? 0;
    if (fence === 0 && ticks >= 3) fence = ticks;
    else if (fence > 0 && ticks >= fence && /^\s*`+\s*$/.test(line)) fence = 0;
    else if (fence === 0) kept.push(line);
  }
  return { text: kept.join('\n').replace(/(`+)[\s\S]*?\1/g, ''), fencesClosed: fence === 0 };
}

/** 120 rows: the first 7 pass, the other 113 fail (on lines 9 to 121 of the CSV). */
const PASS_7_FAIL_113 = Array.from({ length: 120 }, (_, i) => ({
  expected: `e${i}`,
  answer: i < 7 ? `e${i}` : `x${i}`,
}));

describe('the Action on a pull request', () => {
  const fixture = useActionFixture();

  it('first run: one comment, one check run on the head commit with row annotations, a summary, outputs', async () => {
    const ws = workspace(suiteFiles(ONE_FAILING));
    const r = await fixture.run(ws);
    assert.equal(r.code, 1, `the verdict is fail, so the step fails\n${r.stdout}${r.stderr}`);
    const comments = fixture.server.state.comments.get(7) ?? [];
    assert.equal(comments.length, 1);
    assert.match(
      comments[0]?.body ?? '',
      /<!-- evalgate-report config="evals.yaml" job="evals" -->/,
    );
    assert.match(comments[0]?.body ?? '', /fail/i);
    const runs = [...fixture.server.state.checkRuns.values()];
    assert.equal(runs.length, 1);
    assert.equal(runs[0]?.name, 'evals: evals.yaml');
    assert.equal(runs[0]?.head_sha, HEAD_SHA, 'the PR head, not the merge commit');
    assert.equal(runs[0]?.conclusion, 'failure');
    assert.deepEqual(
      runs[0]?.annotations.map((a) => [a.path, a.start_line, a.annotation_level]),
      [['testsets/qa.csv', 4, 'failure']],
    );
    assert.match(r.summary, /evals: evals\.yaml/);
    assert.deepEqual(
      {
        verdict: r.outputs.verdict,
        passed: r.outputs.passed,
        failed: r.outputs.failed,
        errored: r.outputs.errored,
      },
      { verdict: 'fail', passed: '2', failed: '1', errored: '0' },
    );
    assert.equal(r.outputs['comment-url'], comments[0]?.html_url);
    assert.ok(existsSync(join(ws.dir, 'evals-results.json')), 'the results artifact is written');

    // Second run on the same PR: the comment is updated, not duplicated.
    const again = await fixture.run(ws);
    assert.equal(again.code, 1);
    const after2 = fixture.server.state.comments.get(7) ?? [];
    assert.equal(after2.length, 1, 'still one comment');
    assert.ok(
      fixture.server.requests.some(
        (q) => q.method === 'PATCH' && /\/issues\/comments\/\d+$/.test(q.path),
      ),
    );
  });

  it('sends more than 50 annotations across the create and the updates', async () => {
    const ws = workspace(suiteFiles(PASS_7_FAIL_113));
    const before = fixture.server.state.checkRuns.size;
    const r = await fixture.run(ws);
    assert.equal(r.code, 1, r.stderr);
    const run = [...fixture.server.state.checkRuns.values()][before];
    assert.equal(run?.annotations.length, 113);
    assert.ok(run?.batches.every((b) => b.length <= 50));
    assert.equal(run?.batches.length, 3);
    assert.deepEqual(
      run?.annotations.map((a) => a.start_line).slice(0, 3),
      [9, 10, 11],
      'failing rows start at line 9 (header + 7 passing rows)',
    );
  });

  it('annotates at most max-annotations rows, the first, and says how many more failed', async () => {
    const ws = workspace(suiteFiles(PASS_7_FAIL_113));
    const before = fixture.server.state.checkRuns.size;
    const r = await fixture.run(ws, { 'max-annotations': '60' });
    assert.equal(r.code, 1, r.stderr);
    const run = [...fixture.server.state.checkRuns.values()][before];
    assert.deepEqual(
      run?.batches.map((b) => b.length),
      [50, 10],
      'two requests instead of three',
    );
    assert.deepEqual(
      run?.annotations.map((a) => a.start_line),
      Array.from({ length: 60 }, (_, i) => 9 + i),
      'the first failing rows',
    );
    assert.equal(
      run?.output.text,
      'Annotations on the first 60 of the 113 failing rows (`max-annotations`); every one is in the results artifact.',
    );
    assert.equal(r.outputs.failed, '113');
  });

  it('a 403 on the comment: a warning, and the step still ends with the eval verdict', async () => {
    const ws = workspace(suiteFiles(ONE_FAILING.slice(0, 2)), 'pull_request');
    fixture.server.state.comments.delete(7);
    fixture.server.failNext('POST', /\/issues\/7\/comments$/, 403, 1, {
      message: 'Resource not accessible by integration',
    });
    const r = await fixture.run(ws);
    assert.equal(r.code, 0, `the verdict is pass, so the step passes\n${r.stdout}`);
    assert.match(r.stdout, /::warning::evalgate: could not create the PR comment: 403/);
    assert.equal(r.outputs.verdict, 'pass');
    assert.match(r.summary, /pass/i, 'the summary still comes out');
  });

  it('a check run it may not create (a PAT: 403) degrades to 9 row annotations and the verdict line', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ expected: `e${i}`, answer: `x${i}` }));
    const ws = workspace(suiteFiles(rows));
    fixture.server.failNext('POST', /\/check-runs$/, 403, 1, {
      message: 'You must authenticate via a GitHub App.',
    });
    const r = await fixture.run(ws);
    assert.equal(r.code, 1);
    assert.match(
      r.stdout,
      /::warning::evalgate: could not create the check run .*403.*personal access token/,
    );
    // GitHub shows 10 error annotations a step: 9 rows, then the verdict line that fails it.
    const rowErrors = fileErrors(r.stdout);
    assert.equal(rowErrors.length, 9);
    assert.ok(rowErrors.every((line) => /file=testsets\/qa\.csv,line=\d+/.test(line)));
    assert.equal(r.stdout.match(/^::error[ :]/gm)?.length, 10);
    assert.match(r.stdout, /^::error::evals: fail: 1 of 1 runs failed/m);
  });

  it('escapes outputs so the comment keeps its structure and mentions nobody', async () => {
    const nasty =
      'bad </details> ```js\n@octocat and @org/team see #12 <img src=x onerror=alert(1)>';
    const ws = workspace(suiteFiles([{ expected: 'good', answer: nasty }]));
    fixture.server.state.comments.delete(7);
    const r = await fixture.run(ws);
    assert.equal(r.code, 1, r.stderr);
    const body = fixture.server.state.comments.get(7)?.[0]?.body ?? '';
    assert.match(body, /octocat/, 'the output is shown');
    // What GitHub renders as markup: everything outside code blocks and code spans.
    const markup = outsideCode(body);
    assert.ok(markup.fencesClosed, 'every code fence is closed');
    assert.equal(
      (markup.text.match(/<details>/g) ?? []).length,
      (markup.text.match(/<\/details>/g) ?? []).length,
      '<details> balanced outside code',
    );
    assert.doesNotMatch(markup.text, /(^|[^\w])@octocat\b/, 'no live mention');
    assert.doesNotMatch(markup.text, /(^|[^\w])@org\/team\b/, 'no team mention');
    assert.doesNotMatch(markup.text, /<img/);
  });

  it('keeps a 5,000-case failing comment under 65,536 characters and the check run under 65,535, saying what they cut', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({
      expected: `expected ${i}`,
      answer: `a long wrong answer ${'x'.repeat(80)} ${i}`,
    }));
    const ws = workspace(suiteFiles(rows));
    fixture.server.state.comments.delete(7);
    const r = await fixture.run(ws);
    assert.equal(r.code, 1, r.stderr);
    const body = fixture.server.state.comments.get(7)?.[0]?.body ?? '';
    assert.ok(body.length > 1000 && body.length <= 65_536, `comment length ${body.length}`);
    assert.match(body, /more failing cases not shown|not shown/);
    const run = [...fixture.server.state.checkRuns.values()].at(-1);
    // GitHub takes at most 65,535 characters of a check run's summary (the fake refuses more).
    const summary = run?.output.summary ?? '';
    assert.ok(summary.length > 30_000 && summary.length <= 65_535, `summary ${summary.length}`);
    assert.match(summary, /not shown/, 'the check run says what it cut');
    // max-annotations' default: the first 500 rows, in 10 requests rather than 100.
    assert.equal(run?.annotations.length, 500);
    assert.equal(run?.batches.length, 10);
    assert.match(run?.output.text ?? '', /first 500 of the 5,000 failing rows/);
    // The job summary has room for every case, but the run kept only the first 1,000 failing
    // cases whole (REPORTED_WHOLE_CASES): those are listed, the rest counted.
    assert.match(r.summary, /<summary>5,000 failing cases<\/summary>/);
    assert.equal((r.summary.match(/^- `[0-9a-f]{11,}…`/gm) ?? []).length, 1000);
    assert.match(r.summary, /^… 4,000 more failing cases not shown \(see the results artifact\)$/m);
  });
});

describe('the Action with baseline: auto', () => {
  const fixture = useActionFixture();

  /** The BREAK project: with BREAK=1 two in three answers go wrong. */
  const files = (): Record<string, string> =>
    breakProjectFiles({ evaluators: [EXACT], gate: { minPassRate: 0.1 } });

  it('downloads the base branch artifact and shows the statistics in the comment', async () => {
    const ws = workspace(files());
    addResultsArtifact(fixture.server, 'main', await cliResults(ws, 'base.json', 0));
    addResultsArtifact(fixture.server, 'other', '{}');

    const r = await fixture.run(ws, { baseline: 'auto' }, { BREAK: '1' });
    assert.equal(r.code, 0, `regressions warn by default; minPassRate holds\n${r.stdout}`);
    assert.match(r.stdout, /comparing with evals-results from main/);
    const body = fixture.server.state.comments.get(7)?.[0]?.body ?? '';
    assert.match(
      body,
      /exact: 1\.000 → 0\.350 \(-0\.650, 95% CI -0\.\d{3}…-0\.\d{3}\) \*\*regressed\*\*/,
    );
    assert.match(body, /\*\*2 regressions\*\*/);
    const results = JSON.parse(readFileSync(join(ws.dir, 'evals-results.json'), 'utf8')) as {
      comparison?: { hasRegression: boolean };
    };
    assert.equal(results.comparison?.hasRegression, true, 'the comparison is in the artifact');
    assert.ok(fixture.server.requests.some((q) => /\/actions\/artifacts$/.test(q.path)));
  });

  it('carries on without a comparison when the base branch has no artifact yet', async () => {
    const ws = workspace(files());
    fixture.server.state.comments.delete(7);
    const r = await fixture.run(ws, {
      baseline: 'auto',
      'artifact-name': 'never-uploaded',
    });
    assert.equal(r.code, 0, r.stdout);
    assert.match(
      r.stdout,
      /no results artifact named never-uploaded from main yet; running without a comparison/,
    );
    assert.doesNotMatch(fixture.server.state.comments.get(7)?.[0]?.body ?? '', /95% CI/);
  });
});
