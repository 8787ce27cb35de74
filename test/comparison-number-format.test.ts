/**
 * A change of a score or κ, and a κ, are written the same way by every form of a comparison:
 * the terminal and markdown (`evals compare`, the PR comment), the gate's regression condition,
 * and the HTML report's table. Before, the text forms wrote a Δ with two decimals (`+0.05`) and a
 * κ with `toFixed(2)` where the page writes three (`+0.050`, `0.812`), so one comparison read
 * differently on the page and in the comment.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rowNumbers } from '../report-app/row-numbers.ts';
import { regressionCondition } from '../src/compare/gate.ts';
import type { ComparisonRowView } from '../src/report/html-model-comparison.ts';
import { agreementLine } from '../src/report/agreement-text.ts';
import { rowCells, rowText, type Row } from '../src/report/comparison-wording.ts';
import { formatKappa, formatScoreChange } from '../src/shared/format-change.ts';
import type { AgreementSummary } from '../src/types/index.ts';
import type {
  AgreementChange,
  EvaluatorChange,
  RowTest,
  RunComparison,
} from '../src/types/comparison.ts';

const tested: RowTest = {
  pValue: 0.001,
  adjustedP: 0.002,
  qValue: 0.002,
  label: 'regressed',
  significant: true,
  power: null,
};

const evaluator: EvaluatorChange = {
  ...tested,
  evaluator: 'exact',
  paired: 40,
  baseMean: 0.8625,
  headMean: 0.8121,
  delta: -0.0504,
  ci: { low: -0.0813, high: -0.0195 },
  sd: 0.1,
};

const agreement: AgreementChange = {
  ...tested,
  evaluator: 'judge',
  column: 'human',
  weighted: false,
  compared: { base: 40, head: 40 },
  baseKappa: 0.8123,
  headKappa: 0.6719,
  delta: -0.1404,
  ci: { low: -0.2617, high: -0.0191 },
  se: 0.06,
};

/** The page's view of a row (see html-model-comparison.ts). */
function view(row: Row): ComparisonRowView {
  const change = row.change as EvaluatorChange & AgreementChange;
  const agreementRow = row.kind === 'agreement';
  return {
    run: 's',
    incomplete: '',
    kind: row.kind,
    metric: '',
    name: '',
    base: agreementRow ? change.baseKappa : change.baseMean,
    head: agreementRow ? change.headKappa : change.headMean,
    delta: change.delta,
    low: change.ci?.low ?? null,
    high: change.ci?.high ?? null,
    endsAtZero: false,
    label: change.label,
    verdict: change.label,
  };
}

describe('a comparison writes its numbers as the HTML report does', () => {
  for (const row of [
    { kind: 'evaluator', change: evaluator } as const,
    { kind: 'agreement', change: agreement } as const,
  ]) {
    it(`the ${row.kind} row: base, head and Δ in the table, the interval in the text`, () => {
      const [base, head, delta, interval] = rowNumbers(view(row));
      const cells = rowCells(row);
      assert.deepEqual([cells.base, cells.head, cells.delta], [base, head, delta]);
      const change = rowText(row, 0.95, 0.1).change;
      const [low, high] = /^\[(.*), (.*)\]$/.exec(interval ?? '')!.slice(1);
      assert.ok(change.includes(`${base} → ${head} (${delta}, 95% CI ${low}…${high})`), change);
    });
  }

  it('three decimals for a Δ and a κ', () => {
    assert.deepEqual(rowCells({ kind: 'evaluator', change: evaluator }), {
      name: 'exact',
      base: '0.863',
      head: '0.812',
      delta: '-0.050',
      label: 'regressed',
    });
    assert.equal(
      rowText({ kind: 'agreement', change: agreement }, 0.95, 0.1).change,
      'κ 0.812 → 0.672 (-0.140, 95% CI -0.262…-0.019)',
    );
  });

  it("the gate's regression condition writes them the same way", () => {
    const run = {
      passRate: { ...tested, label: 'unchanged', significant: false, paired: 40 },
      evaluators: [evaluator],
      agreement: [agreement],
      evaluatorsOnlyInBase: [],
      evaluatorsOnlyInHead: [],
    } as unknown as RunComparison;
    const actual = regressionCondition(run).actual;
    assert.ok(actual.includes('exact 0.863 → 0.812 (-0.050'), actual);
    assert.ok(actual.includes('judge agreement κ 0.812 → 0.672 (-0.140'), actual);
  });

  it("a run's agreement line writes κ as the comparison does", () => {
    const summary = {
      kappa: 0.8123,
      kappaCi: { low: 0.6149, high: 0.9931 },
      weighted: false,
      accuracy: null,
      accuracyCi: null,
      compared: 40,
      unjudged: 0,
      unrecognized: 0,
      column: 'human',
      categories: ['pass', 'fail'],
      table: [
        [18, 2],
        [2, 18],
      ],
    } as unknown as AgreementSummary;
    assert.match(agreementLine('judge', summary), /κ 0\.812 \(95% CI 0\.615…0\.993\)/);
  });

  it('a κ never rounds to a value it is not, nor to -0.000; a small Δ keeps its digits', () => {
    assert.equal(formatKappa(0.99996), '0.99996');
    assert.equal(formatKappa(-0.0004), '-0.0004');
    assert.equal(formatKappa(-1e-17), '0.000');
    assert.equal(formatKappa(-0.25), '-0.250');
    assert.equal(formatScoreChange(0.0004), '+0.00040');
    assert.equal(formatScoreChange(-1e-17), '0.000');
  });
});
