import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  ANNOTATION_TEXT_BUDGET_BYTES,
  ANNOTATION_TEXT_MAX_BYTES,
  ANNOTATION_TITLE_MAX_CHARS,
  CHECK_RUN_SUMMARY_MAX_CHARS,
  JOB_SUMMARY_MAX_BYTES,
  MAX_WORKFLOW_COMMAND_ANNOTATIONS,
  PR_COMMENT_MAX_CHARS,
  REPORT_MAX_BYTES,
} from '../src/report/github-limits.ts';
import { renderMarkdownReport } from '../src/report/markdown.ts';
import { reported } from './helpers/cases.ts';
import { artifactOf, failingRun } from './report-fixture-large.ts';

describe('GitHub limits', () => {
  it('are what GitHub documents', () => {
    // docs.github.com/rest/issues/comments: "Body is too long (maximum is 65536 characters)".
    assert.equal(PR_COMMENT_MAX_CHARS, 65_536);
    // docs.github.com/rest/checks/runs: output.summary "Maximum length: 65535 characters".
    assert.equal(CHECK_RUN_SUMMARY_MAX_CHARS, 65_535);
    // Job summaries: "each step is restricted to a maximum size of 1MiB".
    assert.equal(JOB_SUMMARY_MAX_BYTES, 1_048_576);
    // docs.github.com/rest/checks/runs: annotations[].title "The maximum size is 255 characters",
    // message and raw_details "The maximum size is 64 KB".
    assert.equal(ANNOTATION_TITLE_MAX_CHARS, 255);
    assert.equal(ANNOTATION_TEXT_MAX_BYTES, 65_536);
    // Workflow commands: 10 error annotations shown per step.
    assert.equal(MAX_WORKFLOW_COMMAND_ANNOTATIONS, 10);
  });

  it('hold every budget at or under the limit it serves', () => {
    assert.ok(REPORT_MAX_BYTES.comment <= PR_COMMENT_MAX_CHARS);
    assert.ok(REPORT_MAX_BYTES.checkRunSummary <= CHECK_RUN_SUMMARY_MAX_CHARS);
    assert.ok(REPORT_MAX_BYTES.jobSummary < JOB_SUMMARY_MAX_BYTES);
    assert.ok(ANNOTATION_TEXT_BUDGET_BYTES < ANNOTATION_TEXT_MAX_BYTES);
  });

  it('a report rendered to each budget stays within it', () => {
    const artifact = reported(artifactOf([failingRun(2_000, { outputChars: 400 })]));
    for (const maxChars of Object.values(REPORT_MAX_BYTES)) {
      const doc = renderMarkdownReport(artifact, {
        title: 'evals: evals.yaml',
        marker: '',
        maxChars,
        sourceRoot: '',
      });
      // In characters: the Action shrinks the budget further until the UTF-8 bytes fit too.
      assert.ok(doc.length <= maxChars, `${doc.length} > ${maxChars}`);
    }
  });
});
