/**
 * The PR comment's verdict sentence names what regressed. A judge whose agreement κ with the
 * human labels dropped while its scores did not move (it now fails as many good answers as it
 * passes bad ones) is a κ regression, not an evaluator regression: the sentence said
 * `1 evaluator regressed` above a table whose evaluator row read `unchanged`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { renderMarkdownReport } from '../src/report/markdown.ts';
import { PR_COMMENT_MAX_CHARS } from '../src/report/github-limits.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { agreementProject } from './helpers/agreement-project.ts';
import { reported } from './helpers/cases.ts';
import { runInProcess } from './helpers/in-process.ts';

describe('the verdict sentence of a comparison whose only regression is a κ row', () => {
  it('says the judge’s agreement regressed, not the evaluator', async () => {
    // Even rows are labelled pass, odd ones fail. HEAD's judge is wrong on rows 0–29: it fails
    // 15 good answers and passes 15 bad ones, so its mean and the pass rate stay at 0.5 while
    // κ falls from 1 to 0.
    const dir = agreementProject({ rows: 60, baseWrong: () => false, headWrong: (i) => i < 30 });
    assert.equal((await runInProcess(['run', '-o', 'base.json'], dir, { SIDE: 'base' })).code, 0);
    const head = await runInProcess(['run', '-o', 'head.json', '--baseline', 'base.json'], dir, {
      SIDE: 'head',
    });
    assert.equal(head.code, 1, head.stdout);
    const artifact = JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')) as ResultsArtifact;
    const run = artifact.comparison?.runs[0];
    assert.equal(run?.agreement[0]?.label, 'regressed');
    assert.equal(run?.evaluators[0]?.label, 'unchanged');
    assert.equal(run?.passRate.label, 'unchanged');

    const markdown = renderMarkdownReport(reported(artifact), {
      title: 'evals: evals.yaml',
      marker: '<!-- evalgate: evals.yaml -->',
      maxChars: PR_COMMENT_MAX_CHARS,
      sourceRoot: '',
    });
    const verdict = markdown.split('\n').find((line) => line.startsWith('**❌ Blocked**'));
    assert.ok(verdict !== undefined, markdown.slice(0, 400));
    assert.doesNotMatch(verdict, /evaluator regressed/);
    assert.match(verdict, /the agreement κ of 1 judge regressed/);
  });
});
