/**
 * How agreement with human labels is reported: the line of the terminal summary and the markdown
 * report (the PR comment), and the κ row of a comparison, from a tally built here.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { compareArtifacts } from '../src/compare/compare.ts';
import { AgreementTally } from '../src/evaluators/agreement.ts';
import { agreementLine } from '../src/report/agreement-text.ts';
import { renderComparisonMarkdown } from '../src/report/comparison-markdown.ts';
import { PR_COMMENT_MAX_CHARS } from '../src/report/github-limits.ts';
import { renderMarkdownReport } from '../src/report/markdown.ts';
import type { AgreementSummary, EvaluationResult, ResultsArtifact } from '../src/types/index.ts';
import { reported } from './helpers/cases.ts';
import { artifactOf, passingRun } from './report-fixture-large.ts';

function judged(passed: boolean): EvaluationResult {
  return {
    evaluator: 'evaluator-1',
    score: passed ? 1 : 0,
    threshold: { gte: 1 },
    passed,
    metadata: null,
    error: null,
    durationMs: 1,
  };
}

/** `agree` of 40 rows where the judge says what the human said, the rest the opposite. */
function agreementOf(agree: number): AgreementSummary {
  const tally = new AgreementTally({ column: 'human', choices: null });
  for (let i = 0; i < 40; i++) {
    const human = i % 2 === 0;
    tally.add(human ? 'pass' : 'fail', judged(i < agree ? human : !human));
  }
  return tally.summary();
}

function withAgreement(agreement: AgreementSummary, sha: string): ResultsArtifact {
  const run = passingRun({ model: 'a' }, 1);
  const stats = run.summary.evaluators['evaluator-1'];
  assert.ok(stats);
  stats.agreement = agreement;
  return artifactOf([run], { sha });
}

describe('agreement in the reports', () => {
  it('reads as κ and accuracy with their intervals and the rows behind them', () => {
    // 36 of 40 agree, both sides balanced: p_o = 0.9, p_e = 0.5, κ = 0.8.
    const line = agreementLine('friendly', agreementOf(36));
    assert.match(
      line,
      /^friendly vs human labels \(column human\): κ 0\.800 \(95% CI 0\.\d{3}…0\.\d{3}\) · accuracy 90\.0% \(95% CI 76\.9%…96\.0%\) · 40 labelled rows$/,
    );
  });

  it('says why κ is 0 with no interval when the judge gave one verdict to every row', () => {
    const tally = new AgreementTally({ column: 'human', choices: null });
    for (let i = 0; i < 40; i++) tally.add(i % 2 === 0 ? 'pass' : 'fail', judged(true));
    const line = agreementLine('helpful', tally.summary());
    assert.match(
      line,
      /κ 0\.000 \(95% CI 0\.000…0\.000\) \(the judge gave "pass" to every labelled row\) · accuracy 50\.0%/,
    );
    // A judge that gave both verdicts has no such note.
    assert.doesNotMatch(agreementLine('helpful', agreementOf(30)), /to every labelled row/);
  });

  it('is in the markdown report, the body of the PR comment', () => {
    const markdown = renderMarkdownReport(
      reported(withAgreement(agreementOf(36), 'a'.repeat(40))),
      {
        title: 'evals: evals.yaml',
        marker: '<!-- evalgate -->',
        maxChars: PR_COMMENT_MAX_CHARS,
        sourceRoot: '',
      },
    );
    assert.match(markdown, /- evaluator-1 vs human labels \(column human\): κ 0\.800 /);
  });

  it("says, with trials, that each case's trials are averaged first", () => {
    const withTrials = (sha: string): ResultsArtifact => {
      const artifact = withAgreement(agreementOf(36), sha);
      for (const run of artifact.runs) {
        run.plan = { evaluators: ['evaluator-1'], trials: 3, gate: { minDetectableEffect: 0.2 } };
      }
      return artifact;
    };
    const comparison = compareArtifacts(withTrials('a'.repeat(40)), withTrials('b'.repeat(40)));
    assert.equal(comparison.runs[0]?.trials, 3);
    assert.equal(comparison.runs[0]?.minDetectableEffect, 0.2);
    const markdown = renderComparisonMarkdown(comparison);
    assert.match(markdown, /· 1 case compared · 3 trials each, averaged per case\n/);
    assert.match(
      markdown,
      /With trials, each case's trials are averaged first: the case is the unit\./,
    );
  });

  it('compares κ with the baseline as a row of the comparison', () => {
    const comparison = compareArtifacts(
      withAgreement(agreementOf(40), 'a'.repeat(40)),
      withAgreement(agreementOf(30), 'b'.repeat(40)),
    );
    const row = comparison.runs[0]?.agreement[0];
    assert.ok(row);
    // κ 1 → 0.5: the base κ has no spread (SE 0), the head's SE is what the test sees.
    assert.equal(row.baseKappa, 1);
    assert.ok(Math.abs((row.headKappa ?? 0) - 0.5) < 1e-12);
    assert.equal(row.label, 'regressed');
    assert.ok(row.ci !== null && row.ci.high < 0 && (row.pValue ?? 1) < 0.05);
    assert.match(
      renderComparisonMarkdown(comparison),
      /- 🔴 evaluator-1 agreement: κ 1\.000 → 0\.500 \(-0\.500, 95% CI -0\.\d{3}…-0\.\d{3}\) \*\*regressed\*\*/,
    );
  });
});
