/**
 * What the HTML report shows, as one plain JSON value the page reads: the verdict and gate of
 * every run, the grid matrices, the comparison with a baseline, and every case with what its
 * detail needs (inputs, output, expected, each evaluation with its reason). Built here, in
 * Node, so the page holds no evaluation logic: reasons and thresholds read as everywhere else.
 * The browser side is report-app/; the two share the types below.
 */
import { describeThreshold } from '../run/threshold.ts';
import type { Comparison } from '../types/comparison.ts';
import type { CaseResult, EvaluationResult, ResultsArtifact, RunResult } from '../types/index.ts';
import { caseLabel } from './case-text.ts';
import {
  incompleteRunNote,
  incompleteWarnings,
  type IncompleteWarning,
} from './comparison-incomplete.ts';
import { directionWords } from './comparison-wording.ts';
import { lostScoreWarnings, scoredNote } from './comparison-lost-scores.ts';
import { agreementLine, agreementsOf } from './agreement-text.ts';
import { endsAtZero, shownLabel } from './shown-label.ts';
import { reasonOf } from './evaluation-reason.ts';
import { outputText } from './failure-details.ts';
import { gridMatrices, type GridMatrix } from './grid-matrix.ts';
import { describeRun, describeUsage, formatCount, formatParams } from './labels.ts';
import { runTotals, type RunTotals } from './totals.ts';

/** Longest value (input field, output, expected) the page holds whole; longer ones are cut. */
export const MAX_VALUE_CHARS = 20_000;

/** One evaluation of a case, as its detail lists it. */
export interface EvaluationView {
  evaluator: string;
  score: number | null;
  /** `≥ 0.8`, or null without a threshold. */
  threshold: string | null;
  passed: boolean | null;
  reason: string | null;
  error: string | null;
  usage: string | null;
}

/** One case of one run. */
export interface CaseView {
  run: number;
  id: string;
  label: string | null;
  source: string | null;
  status: 'passed' | 'failed' | 'errored';
  flaky: boolean;
  /** The row's tags (`__tags__`), [] when it has none. */
  tags: string[];
  durationMs: number;
  /** Per evaluator of `ReportModel.evaluators`, by index: the score, null when none. */
  scores: (number | null)[];
  /** Indexes (into `ReportModel.evaluators`) of the evaluations that did not pass. */
  failing: number[];
  inputs: string;
  output: string;
  expected: string | null;
  error: string | null;
  evaluations: EvaluationView[];
  trials: { passed: boolean; durationMs: number; error: string | null; scores: string }[] | null;
  usage: string | null;
}

/** One run (a suite at a grid point). */
export interface RunView {
  name: string;
  suite: string;
  params: string;
  verdict: 'pass' | 'fail';
  cases: number;
  passed: number;
  failed: number;
  errored: number;
  passRate: number | null;
  flaky: number | null;
  gate: { name: string; expected: string; actual: string; passed: boolean }[];
  evaluators: { id: string; mean: number | null; passRate: number | null; usage: string | null }[];
  usage: string | null;
  /** Each judge's agreement with the human labels, as the terminal says it; [] when none. */
  agreement: string[];
}

/** A row of the baseline comparison chart: a change with its confidence interval. */
export interface ComparisonRowView {
  run: string;
  /** ` · BASE has 2 of 6 planned cases` when a side of the run is incomplete, else ''. */
  incomplete: string;
  metric: string;
  base: number | null;
  head: number | null;
  delta: number | null;
  low: number | null;
  high: number | null;
  /** An end exactly at 0 around a change: 0 is inside, which the page says (`includes 0`). */
  endsAtZero: boolean;
  label: string;
}

/** Everything the page shows. */
export interface ReportModel {
  title: string;
  verdict: 'pass' | 'fail';
  interrupted: boolean;
  /** Merged from only some shards (`evals merge --allow-partial`): named so, not "interrupted". */
  partialMerge: { count: number; merged: number[] } | null;
  totals: RunTotals;
  config: string;
  git: string | null;
  startedAt: string;
  durationMs: number;
  toolVersion: string;
  usage: string | null;
  runs: RunView[];
  matrices: GridMatrix[];
  /** Every evaluator id over all runs; case scores are indexed by it. */
  evaluators: string[];
  /** Every tag of any case, sorted: the case table filters by them. */
  tags: string[];
  comparison: {
    base: string;
    confidence: number;
    /** One per incomplete side (interrupted, partially merged): the comparison is not a full one. */
    warnings: IncompleteWarning[];
    rows: ComparisonRowView[];
    newlyFailing: { run: string; id: string }[];
  } | null;
  cases: CaseView[];
}

/**
 * The model of `artifact`, whose cases are read from `cases(run)` (an artifact's own, or a
 * case log); `comparison` overrides the one the artifact carries.
 */
export function buildReportModel(
  artifact: ResultsArtifact,
  cases: (run: number) => Iterable<CaseResult>,
  comparison: Comparison | undefined = artifact.comparison,
): ReportModel {
  const evaluators = [
    ...new Set(artifact.runs.flatMap((run) => Object.keys(run.summary.evaluators))),
  ];
  const index = new Map(evaluators.map((id, i) => [id, i]));
  const caseViews: CaseView[] = [];
  artifact.runs.forEach((_, run) => {
    for (const result of cases(run)) caseViews.push(caseView(run, result, index));
  });
  const verdict = artifact.interrupted ? 'fail' : artifact.verdict;
  return {
    title: `evalgate report: ${artifact.config}`,
    verdict,
    interrupted: artifact.interrupted,
    partialMerge: artifact.partialMerge ?? null,
    totals: runTotals(artifact.runs),
    config: artifact.config,
    git: artifact.git?.sha
      ? `${artifact.git.ref ?? ''} ${artifact.git.sha.slice(0, 7)}`.trim()
      : null,
    startedAt: artifact.startedAt,
    durationMs: artifact.durationMs,
    toolVersion: artifact.tool.version,
    usage: artifact.usage ? describeUsage(artifact.usage) : null,
    runs: artifact.runs.map(runView),
    matrices: gridMatrices(artifact.runs),
    evaluators,
    tags: [...new Set(caseViews.flatMap((view) => view.tags))].sort(),
    comparison: comparison ? comparisonView(comparison) : null,
    cases: caseViews,
  };
}

function runView(run: RunResult): RunView {
  const { summary } = run;
  return {
    name: describeRun(run),
    suite: run.suite,
    params: formatParams(run.params, ' '),
    verdict: run.verdict,
    cases: summary.cases,
    passed: summary.passed,
    failed: summary.failed,
    errored: summary.errored,
    passRate: summary.cases === 0 ? null : summary.passRate,
    flaky: summary.flaky ?? null,
    gate: run.gate.conditions.map((c) => ({ ...c })),
    evaluators: Object.entries(summary.evaluators).map(([id, stats]) => ({
      id,
      mean: stats.mean,
      passRate: stats.passRate,
      usage: stats.usage ? describeUsage(stats.usage) : null,
    })),
    usage: summary.usage ? describeUsage(summary.usage) : null,
    agreement: agreementsOf(summary.evaluators).map(([id, a]) => agreementLine(id, a)),
  };
}

function caseView(run: number, result: CaseResult, index: Map<string, number>): CaseView {
  const scores: (number | null)[] = new Array<number | null>(index.size).fill(null);
  const failing: number[] = [];
  for (const evaluation of result.evaluations) {
    const at = index.get(evaluation.evaluator);
    if (at === undefined) continue;
    scores[at] = evaluation.score;
    if (evaluation.passed === false) failing.push(at);
  }
  const source = result.source ? `${result.source.file}:${result.source.line}` : null;
  return {
    run,
    id: result.id,
    label: caseLabel(result),
    source,
    status: result.error !== null ? 'errored' : result.passed ? 'passed' : 'failed',
    flaky: result.flaky === true,
    tags: result.tags ?? [],
    durationMs: Math.round(result.durationMs),
    scores,
    failing,
    inputs: capped(pretty(result.data)),
    output: capped(typeof result.output === 'string' ? result.output : pretty(result.output)),
    expected: expectedOf(result),
    error: result.error,
    evaluations: result.evaluations.map(evaluationView),
    trials:
      result.trials?.map((trial) => ({
        passed: trial.passed,
        durationMs: Math.round(trial.durationMs),
        error: trial.error,
        scores: trial.evaluations
          .map(
            (e) =>
              `${e.evaluator} ${e.score === null ? 'error' : String(Number(e.score.toFixed(3)))}`,
          )
          .join(', '),
      })) ?? null,
    usage: result.usage ? describeUsage(result.usage) : null,
  };
}

function evaluationView(evaluation: EvaluationResult): EvaluationView {
  return {
    evaluator: evaluation.evaluator,
    score: evaluation.score,
    threshold: evaluation.threshold ? describeThreshold(evaluation.threshold) : null,
    passed: evaluation.passed,
    reason: reasonOf(evaluation),
    error: evaluation.error,
    usage: evaluation.usage ? describeUsage(evaluation.usage) : null,
  };
}

/** Data fields that hold what the output should be, in the order they are preferred. */
const EXPECTED_FIELDS = ['expected', 'expected_output', 'expectedOutput', 'reference', 'answer'];

/**
 * What the case expected: an evaluator's `expected` (is-equals, levenshtein record it), else a
 * data field named for it. Null when neither is there.
 */
function expectedOf(result: CaseResult): string | null {
  for (const evaluation of result.evaluations) {
    const expected = evaluation.metadata?.expected;
    if (expected !== undefined)
      return capped(typeof expected === 'string' ? expected : pretty(expected));
  }
  const data = result.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
  const fields = data as Record<string, unknown>;
  const key = EXPECTED_FIELDS.find(
    (field) => fields[field] !== undefined && fields[field] !== null,
  );
  if (key === undefined) return null;
  const value = fields[key];
  return capped(typeof value === 'string' ? value : pretty(value));
}

function pretty(value: unknown): string {
  if (value === undefined) return '';
  try {
    return JSON.stringify(value, null, 2) ?? outputText(value);
  } catch {
    return outputText(value);
  }
}

function capped(text: string): string {
  return text.length <= MAX_VALUE_CHARS
    ? text
    : `${text.slice(0, MAX_VALUE_CHARS)}\n… (${formatCount(text.length - MAX_VALUE_CHARS)} more characters: evals show --full prints all)`;
}

function comparisonView(comparison: Comparison): NonNullable<ReportModel['comparison']> {
  const rows: ComparisonRowView[] = [];
  const newlyFailing: { run: string; id: string }[] = [];
  for (const run of comparison.runs) {
    const name = describeRun(run);
    const pass = run.passRate;
    // ` · BASE has 2 of 6 planned cases` where a side of this run was cut short, as the text says.
    const incomplete = incompleteRunNote(run);
    rows.push({
      run: name,
      incomplete,
      metric: 'pass rate',
      base: pass.baseRate,
      head: pass.headRate,
      delta: pass.delta,
      low: pass.ci?.low ?? null,
      high: pass.ci?.high ?? null,
      endsAtZero: pass.ci != null && pass.delta !== null && endsAtZero(pass.delta, pass.ci),
      label: shownLabel(pass),
    });
    for (const change of run.evaluators) {
      // The label already follows the direction; the name says it, as the text forms do.
      const way = directionWords(change);
      rows.push({
        run: name,
        incomplete,
        metric: [
          change.evaluator,
          way === '' ? '' : `(${way})`,
          scoredNote({ kind: 'evaluator', change, compared: pass.paired }),
        ]
          .filter(Boolean)
          .join(' '),
        base: change.baseMean,
        head: change.headMean,
        delta: change.delta,
        low: change.ci?.low ?? null,
        high: change.ci?.high ?? null,
        endsAtZero:
          change.ci != null && change.delta !== null && endsAtZero(change.delta, change.ci),
        label: shownLabel(change),
      });
    }
    // A judge's κ is a row of the comparison too: the gate counts its regression.
    for (const change of run.agreement) {
      rows.push({
        run: name,
        incomplete,
        metric: `${change.evaluator} agreement (${change.weighted ? 'weighted κ' : 'κ'})`,
        base: change.baseKappa,
        head: change.headKappa,
        delta: change.delta,
        low: change.ci?.low ?? null,
        high: change.ci?.high ?? null,
        endsAtZero: false,
        label: shownLabel(change),
      });
    }
    for (const ref of run.cases.newlyFailing) newlyFailing.push({ run: name, id: ref.id });
  }
  const base = comparison.base;
  return {
    base: `${base.config}${base.git?.sha ? ` @ ${base.git.sha.slice(0, 7)}` : ''} (${base.startedAt})`,
    confidence: comparison.settings.confidence,
    warnings: [...incompleteWarnings(comparison), ...lostScoreWarnings(comparison)],
    rows,
    newlyFailing,
  };
}
