/**
 * What a comparison says, against QA round 3 (sections 9, 10 and 11): the footnote gives the real
 * reason nothing could block, each side's trials when they differ, and an interval end sitting at
 * 0 beside a large p says that 0 is inside.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { compareArtifacts } from '../src/compare/compare.ts';
import { testRuns } from '../src/compare/row-tests.ts';
import { pairRuns } from '../src/compare/run-comparison.ts';
import { renderComparisonMarkdown } from '../src/report/comparison-markdown.ts';
import { renderComparisonText } from '../src/report/comparison-text.ts';
import type { Comparison } from '../src/types/comparison.ts';
import { artifact, run, type CaseSpec } from './helpers/compare-builder.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

/** `n` cases scored `score(i)` by evaluator `exact`, passing at 0.5 or more. */
function cases(n: number, score: (i: number) => number): CaseSpec[] {
  return Array.from({ length: n }, (_, i) => ({ id: `c${i}`, scores: { exact: score(i) } }));
}

function compare(base: CaseSpec[], head: CaseSpec[]): Comparison {
  return compareArtifacts(
    artifact([run('qa', { model: 'small' }, base)]),
    artifact([run('qa', { model: 'small' }, head)], 'b'.repeat(40)),
  );
}

/** A project of `n` rows whose evaluator scores 1 with SIDE=base and 0 with SIDE=head. */
function collapsing(n: number, suite: readonly string[] = []): string {
  return jsonlProject(
    Array.from({ length: n }, (_, i) => ({ i, output: 'x' })),
    [
      'evaluators:',
      '  - id: ok',
      '    use: ./score.mjs',
      '    with: { side: "${SIDE}" }',
      '    threshold: { gte: 0.5 }',
      'gate: { minPassRate: 0 }',
      ...suite,
    ],
    { 'score.mjs': "export default (_, { side }) => ({ score: side === 'base' ? 1 : 0 });\n" },
  );
}

async function runSide(dir: string, out: string, side: string, ...flags: string[]) {
  const result = await runInProcess(['run', '-o', out, ...flags], dir, { SIDE: side });
  assert.ok(result.code === 0 || result.code === 1, result.stderr);
}

const TOO_FEW = 'Every row had fewer than 10 paired cases, so no change could block.';

describe('the footnote when no row could block', () => {
  it('says every row had too few paired cases when 9 cases all regress, in text and markdown', async () => {
    const dir = collapsing(9);
    await runSide(dir, 'b.json', 'base');
    await runSide(dir, 'h.json', 'head');
    const text = await runInProcess(['compare', 'b.json', 'h.json'], dir);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /too few cases \(9 paired\)/);
    assert.ok(text.stdout.includes(TOO_FEW), text.stdout);
    assert.doesNotMatch(text.stdout, /No row had a changed case/);

    const md = await runInProcess(['compare', 'b.json', 'h.json', '--format', 'md'], dir);
    assert.ok(md.stdout.includes(TOO_FEW), md.stdout);
    assert.doesNotMatch(md.stdout, /No row had a changed case/);
  });

  it('still says no row had a changed case when every row had enough cases and none moved', () => {
    const same = cases(20, () => 1);
    const text = renderComparisonText(compare(same, same), { color: false });
    assert.match(text, /No row had a changed case to test, so no change could block\./);
  });

  it('names both reasons when some rows had too few cases and the others no change', () => {
    // `exact` errors on 12 of 20 cases on both sides: its row has 8 pairs, the pass rate 20.
    const withErrors = (i: number): CaseSpec => ({
      id: `c${i}`,
      scores: { exact: i < 12 ? null : 1 },
      passed: true,
    });
    const specs = Array.from({ length: 20 }, (_, i) => withErrors(i));
    const comparison = compare(specs, specs);
    assert.equal(comparison.counts.tooFewCases, 1);
    const text = renderComparisonText(comparison, { color: false });
    assert.match(
      text,
      /Every row had fewer than 10 paired cases or no changed case to test, so no change could block\./,
    );
  });
});

describe('the trials line', () => {
  /** A comparison whose one run ran `head` trials in HEAD and, as the pairing says, `base` in BASE. */
  function withTrials(base: number, head: number): Comparison {
    const specs = cases(12, () => 1);
    const baseRun = run('small', { model: 'a' }, specs);
    const headRun = run('small', { model: 'a' }, specs);
    const pairing = { ...pairRuns(baseRun, headRun), trials: head, baseTrials: base };
    const comparison = compare(specs, specs);
    const tested = testRuns([pairing], {
      confidence: 0.95,
      resamples: 4999,
      seed: 1,
      minPaired: 10,
    });
    return { ...comparison, runs: tested.runs };
  }

  it("gives each side's count when they differ, in text and markdown", () => {
    const mixed = withTrials(1, 3);
    const line = '12 cases compared · BASE 1 trial, HEAD 3 trials, averaged per case';
    assert.ok(renderComparisonText(mixed, { color: false }).includes(line));
    assert.ok(renderComparisonMarkdown(mixed).includes(line));
    assert.match(
      renderComparisonText(withTrials(3, 1), { color: false }),
      /BASE 3 trials, HEAD 1 trial,/,
    );
  });

  it('keeps "3 trials each" when both sides ran 3', () => {
    const text = renderComparisonText(withTrials(3, 3), { color: false });
    assert.match(text, /12 cases compared · 3 trials each, averaged per case/);
    assert.equal('baseTrials' in (withTrials(3, 3).runs[0] ?? {}), false);
  });

  it('says BASE 1 trial, HEAD 3 trials end to end', async () => {
    const dir = collapsing(12, ['trials: 3']);
    await runSide(dir, 'b1.json', 'base', '--trials', '1');
    await runSide(dir, 'h3.json', 'base');
    const text = await runInProcess(['compare', 'b1.json', 'h3.json'], dir);
    assert.match(text.stdout, /12 cases compared · BASE 1 trial, HEAD 3 trials, averaged per case/);
  });
});

describe('an interval end at exactly 0', () => {
  it('says the interval includes 0 beside a large p, and not for a significant change', () => {
    // 2 of 16 cases rise: p = 0.5, and the inverted test puts the lower end at exactly 0.
    const few = compare(
      cases(16, () => 0.75),
      cases(16, (i) => (i < 2 ? 1 : 0.75)),
    );
    const row = few.runs[0]?.evaluators[0];
    assert.equal(row?.ci?.low, 0);
    assert.equal(row?.pValue, 0.5);
    const text = renderComparisonText(few, { color: false });
    assert.match(
      text,
      /exact +0\.750 → 0\.781 \(\+0\.031, 95% CI 0\.000…\+0\.\d{3}, includes 0\) +p = 0\.500/,
    );
    assert.match(renderComparisonMarkdown(few), /95% CI 0\.000…\+0\.\d{3}, includes 0\)/);

    // 30 of 40 rise: the interval is above 0, and says nothing more.
    const many = compare(
      cases(40, () => 0.75),
      cases(40, (i) => (i < 30 ? 1 : 0.75)),
    );
    assert.doesNotMatch(renderComparisonText(many, { color: false }), /includes 0/);
    // Nothing moved: 0.00…0.00 is not an end beside a change.
    const same = compare(
      cases(20, () => 1),
      cases(20, () => 1),
    );
    assert.doesNotMatch(renderComparisonText(same, { color: false }), /includes 0/);
  });
});
