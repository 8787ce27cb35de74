/**
 * Lower-is-better evaluators (a threshold that bounds the score from above only): the summary
 * records the direction, the comparison labels a rise `regressed` and the gate blocks on it, the
 * words say which way up a row is read, and the grid matrix stars the lowest mean.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareArtifacts } from '../src/compare/compare.ts';
import { regressionCondition, significantRegressions } from '../src/compare/gate.ts';
import { testRuns } from '../src/compare/row-tests.ts';
import type { RunPairing } from '../src/compare/run-comparison.ts';
import { painter } from '../src/report/ansi.ts';
import { renderComparisonMarkdown } from '../src/report/comparison-markdown.ts';
import { renderComparisonText } from '../src/report/comparison-text.ts';
import { countsLine } from '../src/report/comparison-wording.ts';
import { gridMatrices } from '../src/report/grid-matrix.ts';
import { renderMatrixText } from '../src/report/grid-matrix-text.ts';
import { buildReportModel } from '../src/report/html-model.ts';
import { summarizeRun } from '../src/run/summary.ts';
import type { RunComparison } from '../src/types/comparison.ts';
import type {
  CaseResult,
  EvaluationResult,
  ResultsArtifact,
  RunResult,
  Threshold,
} from '../src/types/index.ts';

const SETTINGS = { confidence: 0.95, resamples: 4999, seed: 1, minPaired: 10 };

function evaluation(score: number, threshold: Threshold | null): EvaluationResult {
  return {
    evaluator: 'noise',
    score,
    threshold,
    passed: null,
    metadata: null,
    error: null,
    durationMs: 0,
  };
}

function testCase(id: string, evaluations: EvaluationResult[]): CaseResult {
  return {
    id,
    contentId: `content-${id}`,
    source: null,
    data: {},
    output: null,
    error: null,
    durationMs: 0,
    passed: true,
    evaluations,
  };
}

/** 20 cases of `noise`, case n scoring `score(n)` against `threshold`, summarised. */
function run(score: (n: number) => number, threshold: Threshold | null, params = {}): RunResult {
  const cases = Array.from({ length: 20 }, (_, n) =>
    testCase(`c${n}`, [evaluation(score(n), threshold)]),
  );
  return {
    suite: 's',
    params,
    testset: { path: null, ref: null, commit: null, revision: 'r', cases: cases.length },
    verdict: 'pass',
    gate: { conditions: [] },
    summary: summarizeRun(cases, ['noise']),
    cases,
  };
}

function artifact(runs: RunResult[]): ResultsArtifact {
  return {
    schemaVersion: 1,
    tool: { name: 'evalgate', version: '0.0.0' },
    config: 'evals.yaml',
    configHash: 'h',
    git: null,
    startedAt: '2025-01-01T00:00:00.000Z',
    durationMs: 0,
    interrupted: false,
    verdict: 'pass',
    runs,
  };
}

/** A pairing of one evaluator whose 30 cases all moved by `shift` (plus a little noise). */
function pairing(shift: number, lowerIsBetter: boolean): RunPairing {
  const diffs = Float64Array.from({ length: 30 }, (_, i) => shift + (i % 3) * 0.01);
  return {
    suite: 's',
    params: {},
    trials: 1,
    baseTrials: 1,
    minDetectableEffect: 0.1,
    passRate: {
      diffs: new Float64Array(30),
      baseTotal: 0,
      headTotal: 0,
      passToFail: 0,
      failToPass: 0,
    },
    evaluators: [{ evaluator: 'noise', diffs, baseTotal: 6, headTotal: 6, lowerIsBetter }],
    agreement: [],
    evaluatorsOnlyInBase: [],
    evaluatorsOnlyInHead: [],
    cases: { newlyFailing: [], fixed: [], added: [], removed: [], contentChanged: [], flaky: [] },
  };
}

describe('EvaluatorSummary.lowerIsBetter, from the thresholds', () => {
  const direction = (...thresholds: (Threshold | null)[]): boolean | undefined => {
    const cases = thresholds.map((t, i) => testCase(`c${i}`, [evaluation(0.3, t)]));
    return summarizeRun(cases, ['noise']).evaluators.noise?.lowerIsBetter;
  };

  it('is true for upper-bound-only thresholds (lte, lt)', () => {
    assert.equal(direction({ lte: 0.5 }), true);
    assert.equal(direction({ lt: 0.2 }, { lte: 0.4, lt: 0.5 }), true);
  });

  it('is absent with a lower bound, a band, no threshold or no bound at all', () => {
    assert.equal(direction({ gte: 0.5 }), undefined);
    assert.equal(direction({ gt: 0.1, lte: 0.9 }), undefined);
    assert.equal(direction(null), undefined);
    assert.equal(direction({}), undefined);
    assert.equal('lowerIsBetter' in summarizeRun([], ['noise']).evaluators.noise!, false);
  });

  it('ignores evaluations without a bound, and stays higher-is-better when thresholds disagree', () => {
    assert.equal(direction({ lte: 0.5 }, null, {}), true);
    assert.equal(direction({ lte: 0.5 }, { lte: 0.5 }, { gte: 0.5 }), undefined);
  });
});

describe('labelling a lower-is-better row', () => {
  it('a significant rise is regressed and fails the gate', () => {
    const tested = testRuns([pairing(0.2, true)], SETTINGS);
    const [row] = tested.runs[0]!.evaluators;
    assert.equal(row?.label, 'regressed');
    assert.equal(row?.significant, true);
    assert.equal(row?.lowerIsBetter, true);
    assert.ok((row?.delta ?? 0) > 0, 'Δ stays head − base');
    assert.equal(tested.family.regressions, 1);
    const condition = regressionCondition(tested.runs[0]);
    assert.equal(condition.passed, false);
    assert.match(condition.actual, /noise .* \(\+0\.210, lower is better, p = /);
  });

  it('a significant fall is improved and passes the gate', () => {
    const tested = testRuns([pairing(-0.2, true)], SETTINGS);
    assert.equal(tested.runs[0]!.evaluators[0]?.label, 'improved');
    assert.equal(tested.family.improvements, 1);
    assert.deepEqual(significantRegressions(tested.runs[0]!), []);
  });

  it('a higher-is-better row keeps the old reading', () => {
    const rise = testRuns([pairing(0.2, false)], SETTINGS).runs[0]!.evaluators[0];
    const fall = testRuns([pairing(-0.2, false)], SETTINGS).runs[0]!.evaluators[0];
    assert.equal(rise?.label, 'improved');
    assert.equal('lowerIsBetter' in rise, false);
    assert.equal(fall?.label, 'regressed');
  });
});

describe('compareArtifacts reads the direction from the summaries', () => {
  const low = (n: number): number => 0.1 + (n % 4) * 0.01;
  const high = (n: number): number => 0.6 + (n % 4) * 0.01;

  it('labels a rise of an lte evaluator regressed, and says so in the text', () => {
    const comparison = compareArtifacts(
      artifact([run(low, { lte: 0.5 })]),
      artifact([run(high, { lte: 0.5 })]),
    );
    const row = comparison.runs[0]!.evaluators[0]!;
    assert.equal(row.label, 'regressed');
    assert.equal(comparison.hasRegression, true);
    assert.equal('directionChanged' in row, false);
    const text = renderComparisonText(comparison, { color: false });
    assert.match(text, /noise +0\.115 → 0\.615 \(\+0\.500,.*regressed \(lower is better\)/);
  });

  it('follows HEAD when the direction changed, and notes the change on the row', () => {
    const comparison = compareArtifacts(
      artifact([run(low, { gte: 0.5 })]),
      artifact([run(high, { lte: 0.5 })]),
    );
    const row = comparison.runs[0]!.evaluators[0]!;
    assert.equal(row.label, 'regressed');
    assert.equal(row.directionChanged, true);
    const text = renderComparisonText(comparison, { color: false });
    assert.match(
      text,
      /\(direction changed: lower is better in HEAD, higher in BASE; labelled as HEAD says\)/,
    );
    const back = compareArtifacts(
      artifact([run(low, { lte: 0.5 })]),
      artifact([run(high, { gte: 0.5 })]),
    ).runs[0]!.evaluators[0]!;
    assert.equal(back.label, 'improved');
    assert.equal(back.directionChanged, true);
    assert.equal('lowerIsBetter' in back, false);
  });

  it("uses BASE's direction when HEAD's summary lacks the evaluator", () => {
    const head = run(high, null);
    head.summary = { ...head.summary, evaluators: {} };
    const row = compareArtifacts(artifact([run(low, { lte: 0.5 })]), artifact([head])).runs[0]!
      .evaluators[0]!;
    assert.equal(row.lowerIsBetter, true);
    assert.equal(row.label, 'regressed');
    assert.equal('directionChanged' in row, false);
  });
});

describe('the markdown and HTML forms of a lower-is-better row', () => {
  it('name the direction beside the label', () => {
    const base = run((n) => 0.1 + (n % 4) * 0.01, { lte: 0.5 });
    const head = run((n) => 0.6 + (n % 4) * 0.01, { lte: 0.5 });
    const comparison = compareArtifacts(artifact([base]), artifact([head]));
    const markdown = renderComparisonMarkdown(comparison);
    assert.match(
      markdown,
      /\| noise \(lower is better\) \| 0\.115 → 0\.615 \| \+0\.500 \| 🔴 \*\*regressed\*\* \|/,
    );
    assert.match(
      markdown,
      /- 🔴 noise: 0\.115 → 0\.615 .* \*\*regressed\*\* · \(lower is better\)/,
    );
    const model = buildReportModel(artifact([head]), () => head.cases, comparison);
    const row = model.comparison?.rows.find((r) => r.metric.startsWith('noise'));
    assert.deepEqual([row?.metric, row?.label], ['noise (lower is better)', 'regressed']);
  });

  it('call a change the correction over the family removes a possible one, not red', () => {
    const base = run((n) => 0.1 + (n % 4) * 0.01, { lte: 0.5 });
    const head = run((n) => 0.6 + (n % 4) * 0.01, { lte: 0.5 });
    const comparison = compareArtifacts(artifact([base]), artifact([head]));
    // As when many other rows share the family: its own test still calls it, Holm's does not.
    const change = comparison.runs[0]!.evaluators[0]!;
    assert.equal(change.label, 'regressed');
    change.significant = false;
    comparison.family = { ...comparison.family, regressions: 0 };
    comparison.hasRegression = false;
    const markdown = renderComparisonMarkdown(comparison);
    assert.match(markdown, /: 0 regressions · 1 possible regression · /);
    assert.match(
      markdown,
      /\| noise \(lower is better\) \| 0\.115 → 0\.615 \| \+0\.500 \| 🟡 possible regression \(not significant over \d+ rows?\) \|/,
    );
    assert.match(
      markdown,
      /- 🟡 noise: 0\.115 → 0\.615 .* possible regression · \(lower is better\)/,
    );
    assert.doesNotMatch(markdown, /🔴/);
    const model = buildReportModel(artifact([head]), () => head.cases, comparison);
    const row = model.comparison?.rows.find((r) => r.metric.startsWith('noise'));
    assert.equal(row?.label, 'possible regression');
    const text = renderComparisonText(comparison, { color: false });
    assert.match(
      text,
      /noise +0\.115 → 0\.615 .* possible regression \(lower is better\) \(not significant once every row of the comparison is counted\)/,
    );
    assert.doesNotMatch(text, / regressed /);
    assert.match(text, /0 regressions · 1 possible regression · /);
  });

  it('count regressions the gate counts, and name possible ones apart', () => {
    // Each row as the family left it: significant (Holm), q < 0.05 only, or its own p only.
    const row = (label: 'regressed' | 'improved', significant: boolean, qValue: number) => ({
      label,
      significant,
      qValue,
      pValue: 0.01,
      adjustedP: significant ? 0.01 : 0.2,
      power: null,
    });
    const rows = [
      row('regressed', true, 0.01),
      row('regressed', false, 0.04),
      row('regressed', false, 0.2),
      row('improved', true, 0.01),
      row('improved', false, 0.04),
    ];
    const runs = [{ passRate: rows[0], evaluators: rows.slice(1), agreement: [] }];
    const counts = { regressed: 3, improved: 2, unchanged: 5, tooFewCases: 1, underpowered: 2 };
    const family = { rows: 10, regressions: 1, improvements: 1 };
    const bold = (text: string): string => `**${text}**`;
    assert.equal(
      countsLine({ counts, family, runs: runs as unknown as RunComparison[] }, bold),
      // The row whose own p alone is below 0.05 (q = 0.2) is counted as it is shown: unchanged.
      // No row says what it could detect, so none is counted underpowered.
      '**1 regression** · 1 possible regression · 1 improvement · 1 possible improvement · 6 unchanged · 1 with too few cases',
    );
  });
});

describe('the grid matrix of a lower-is-better evaluator', () => {
  it('stars the lowest mean, and says so in its heading', () => {
    const runs = [0.2, 0.4, 0.3].map((level, point) => run(() => level, { lte: 0.5 }, { point }));
    const [matrix] = gridMatrices(runs);
    assert.deepEqual(matrix?.lowerIsBetter, [true]);
    assert.deepEqual(matrix?.bestMeans, [0.2]);
    const lines = renderMatrixText(matrix, painter(false), '');
    assert.match(lines[0]!, /\* best \(lowest for noise\)/);
    assert.match(lines.join('\n'), /\*0\.200/);
    assert.doesNotMatch(lines.join('\n'), /\*0\.400/);
  });

  it('stars the highest mean when any grid point reads it higher-is-better', () => {
    const runs = [
      run(() => 0.2, { lte: 0.5 }, { point: 0 }),
      run(() => 0.4, { gte: 0.1 }, { point: 1 }),
    ];
    const [matrix] = gridMatrices(runs);
    assert.deepEqual(matrix?.lowerIsBetter, [false]);
    assert.deepEqual(matrix?.bestMeans, [0.4]);
  });
});
