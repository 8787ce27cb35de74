/**
 * The PR comment's verdict sentence when no row of the comparison could be tested: every row has
 * fewer than 10 paired cases, so the comparison has no verdict on any of them (docs/statistics.md:
 * `too few cases` means no verdict). Saying `no significant change against the baseline` above a
 * pass rate that fell from 100% to 0% on 3 cases reads as a finding it is not.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareArtifacts } from '../src/compare/compare.ts';
import { renderMarkdownReport } from '../src/report/markdown.ts';
import { PR_COMMENT_MAX_CHARS } from '../src/report/github-limits.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { artifact, run, type CaseSpec } from './helpers/compare-builder.ts';
import { reported } from './helpers/cases.ts';

function verdictOf(head: ResultsArtifact): string {
  const markdown = renderMarkdownReport(reported(head), {
    title: 'evals: evals.yaml',
    marker: '<!-- evalgate: evals.yaml -->',
    maxChars: PR_COMMENT_MAX_CHARS,
    sourceRoot: '',
  });
  const line = markdown.split('\n').find((text) => /^\*\*(✅|❌)/.test(text));
  assert.ok(line !== undefined, markdown.slice(0, 300));
  return line;
}

const cases = (n: number, score: number, prefix = 'c'): CaseSpec[] =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, scores: { exact: score } }));

describe('the verdict sentence when rows had too few cases to test', () => {
  it('says nothing could be tested when every row had too few cases', () => {
    const base = artifact([run('qa', {}, cases(3, 1))]);
    const head = artifact([run('qa', {}, cases(3, 0))], 'b'.repeat(40));
    head.comparison = compareArtifacts(base, head);
    const verdict = verdictOf(head);
    assert.doesNotMatch(verdict, /no significant change/);
    assert.match(verdict, /too few cases to test a change against the baseline/);
  });

  it('counts the rows it could not test beside those it found unchanged', () => {
    const base = artifact([
      run('qa', { p: 'a' }, cases(3, 1)),
      run('qa', { p: 'b' }, cases(30, 1)),
    ]);
    const head = artifact(
      [run('qa', { p: 'a' }, cases(3, 0)), run('qa', { p: 'b' }, cases(30, 1))],
      'b'.repeat(40),
    );
    head.comparison = compareArtifacts(base, head);
    assert.match(
      verdictOf(head),
      /no significant change against the baseline \(2 rows with too few cases to test\)/,
    );
  });

  it('keeps the sentence of a comparison whose rows were all tested', () => {
    const base = artifact([run('qa', {}, cases(30, 1))]);
    const head = artifact([run('qa', {}, cases(30, 1))], 'b'.repeat(40));
    head.comparison = compareArtifacts(base, head);
    assert.match(verdictOf(head), /: no significant change against the baseline; /);
  });
});
