/**
 * What a reader of the comparison is told of a row: the red or green of a change the gate
 * counts (Holm), the yellow of a possible change (q < 0.05 only), or `unchanged` for a row whose
 * own p alone is below 0.05, which among many rows is noise (docs/statistics.md).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { comparisonTable } from '../src/report/comparison-markdown.ts';
import { renderComparisonText } from '../src/report/comparison-text.ts';
import { countsLine, rowText } from '../src/report/comparison-wording.ts';
import { shownLabel, type LabelledRow } from '../src/report/shown-label.ts';
import { comparisonView } from '../src/report/html-model-comparison.ts';
import type { Comparison, EvaluatorChange } from '../src/types/comparison.ts';
import { evaluatorRow, runComparison } from './helpers/comparison-rows.ts';

/** An evaluator row as the family left it: its own p, Holm p and q. */
function row(
  evaluator: string,
  label: EvaluatorChange['label'],
  tests: { p: number; holm: number; q: number },
): EvaluatorChange {
  return evaluatorRow(evaluator, label, tests);
}

function comparison(evaluators: EvaluatorChange[]): Comparison {
  const regressed = evaluators.filter((e) => e.label === 'regressed').length;
  const improved = evaluators.filter((e) => e.label === 'improved').length;
  // The pass rate has no test: only the evaluator rows are labelled.
  const run = runComparison(evaluators, { pValue: null, adjustedP: null, qValue: null });
  return {
    settings: {
      confidence: 0.95,
      resamples: 4999,
      maxResamples: 4999,
      resamplingLimit: 5001,
      seed: 1,
      minPaired: 10,
      power: 0.8,
    },
    base: { config: 'evals.yaml', git: null, startedAt: '2026-01-01T00:00:00.000Z' },
    head: { config: 'evals.yaml', git: null, startedAt: '2026-01-02T00:00:00.000Z' },
    counts: {
      regressed,
      improved,
      unchanged: 1 + evaluators.length - regressed - improved,
      tooFewCases: 0,
      underpowered: 0,
    },
    family: {
      rows: evaluators.length,
      regressions: evaluators.filter((e) => e.significant && e.label === 'regressed').length,
      improvements: evaluators.filter((e) => e.significant && e.label === 'improved').length,
    },
    hasRegression: evaluators.some((e) => e.significant && e.label === 'regressed'),
    runs: [run],
    onlyInBase: [],
    onlyInHead: [],
  };
}

describe('shownLabel', () => {
  const cases: [string, LabelledRow, string][] = [
    [
      'significant after Holm',
      { label: 'regressed', significant: true, qValue: 0.001 },
      'regressed',
    ],
    [
      'q below 0.05, Holm p not',
      { label: 'regressed', significant: false, qValue: 0.03 },
      'possible regression',
    ],
    ['q exactly 0.05', { label: 'regressed', significant: false, qValue: 0.05 }, 'unchanged'],
    [
      'own p only (q above 0.05)',
      { label: 'regressed', significant: false, qValue: 0.3 },
      'unchanged',
    ],
    [
      'an improvement with q below 0.05',
      { label: 'improved', significant: false, qValue: 0.01 },
      'possible improvement',
    ],
    [
      'an improvement by its own p only',
      { label: 'improved', significant: false, qValue: 0.2 },
      'unchanged',
    ],
    ['not in the family', { label: 'regressed', significant: false, qValue: null }, 'unchanged'],
    [
      'too few cases',
      { label: 'too few cases', significant: false, qValue: null },
      'too few cases',
    ],
  ];
  for (const [name, change, expected] of cases) {
    it(`${name}: ${expected}`, () => assert.equal(shownLabel(change), expected));
  }
});

describe('a row whose own p alone is below 0.05, in every report', () => {
  const compared = comparison([
    row('counted', 'regressed', { p: 0.0001, holm: 0.0004, q: 0.0004 }),
    row('possible', 'regressed', { p: 0.012, holm: 0.06, q: 0.03 }),
    row('noise', 'regressed', { p: 0.03, holm: 0.09, q: 0.09 }),
    row('other', 'unchanged', { p: 0.5, holm: 0.5, q: 0.5 }),
  ]);

  it('is counted unchanged, the possible one as possible', () => {
    assert.equal(
      countsLine(compared, (text) => text),
      '1 regression · 1 possible regression · 0 improvements · 3 unchanged · 0 with too few cases',
    );
  });

  it('is a white unchanged row in the PR comment table, after the yellow one', () => {
    const lines = comparisonTable(compared).split('\n');
    const cell = (name: string): string => lines.find((line) => line.includes(` ${name} `)) ?? '';
    assert.match(cell('counted'), /🔴 \*\*regressed\*\*/);
    assert.match(cell('possible'), /🟡 possible regression \(not significant over 4 rows\)/);
    assert.match(cell('noise'), /⚪ unchanged/);
    const order = ['counted', 'possible', 'noise'].map((name) => lines.indexOf(cell(name)));
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      order,
    );
  });

  it('says why it is unchanged though its interval leaves 0 out', () => {
    const noise = compared.runs[0]?.evaluators[2];
    assert.ok(noise);
    const text = rowText({ kind: 'evaluator', change: noise }, 0.95, 0.1);
    assert.match(text.note, /p < 0\.05 on this row alone, q ≥ 0\.05 over the comparison/);
    const terminal = renderComparisonText(compared, { color: false });
    assert.match(terminal, /noise .* unchanged \(p < 0\.05 on this row alone/);
    assert.doesNotMatch(terminal, /noise .* possible regression/);
  });

  it('is unchanged on the report page too', () => {
    const labels = comparisonView(compared).rows.map((r) => [r.name, r.label]);
    assert.deepEqual(labels, [
      ['pass rate', 'unchanged'],
      ['counted', 'regressed'],
      ['possible', 'possible regression'],
      ['noise', 'unchanged'],
      ['other', 'unchanged'],
    ]);
  });
});
