/**
 * What the HTML report shows, as one plain JSON value the page reads: the verdict and gate of
 * every run, the grid matrices, the comparison with a baseline, and every case with what its
 * detail needs (inputs, output, expected, each evaluation with its reason). Built here, in
 * Node, so the page holds no evaluation logic: reasons and thresholds read as everywhere else.
 * The browser side is report-app/; the two share the types below.
 */
import { cutText } from '../shared/cut-text.ts';
import { describeThreshold } from '../run/threshold.ts';
import type { Comparison } from '../types/comparison.ts';
import type { CaseResult, EvaluationResult, ResultsArtifact, RunResult } from '../types/index.ts';
import type { ComparisonView } from './html-model-comparison.ts';
import { caseLabel } from './case-text.ts';
import { agreementLine, agreementsOf } from './agreement-text.ts';
import { comparedOf, type ComparedView } from './html-model-compared.ts';
import { comparisonView, withVerdictNote } from './html-model-comparison.ts';
import { reasonOf } from './evaluation-reason.ts';
import { caseWhy } from './html-model-why.ts';
import { trialReasons } from './html-model-trials.ts';
import {
  baseCaseView,
  baselineKey,
  type BaseCaseView,
  type BaselineCases,
} from './html-model-base.ts';
import { outputText } from './failure-details.ts';
import { gridMatrices, type GridMatrix } from './grid-matrix.ts';
import { describeRun, describeUsage, formatCount, formatParams } from './labels.ts';
import { notComparedSentence } from './not-compared.ts';
import { runTotals, type RunTotals } from './totals.ts';

export type { ComparedView } from './html-model-compared.ts';
export type { BaseCaseView } from './html-model-base.ts';
export type {
  ChangedCasesView,
  ComparisonRowView,
  ComparisonView,
  RunChangesView,
} from './html-model-comparison.ts';

/**
 * Longest value the page holds whole (inputs, expected) or shows (an output, which it holds
 * whole so that search covers all of it); longer ones are cut, saying by how much.
 */
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
  /**
   * Passed in the baseline and did not pass now (the comparison's newly failing); absent
   * otherwise, which keeps 10,000 cases' worth of `false` out of the page.
   */
  newlyFailing?: true;
  /** Did not pass in the baseline and passes now (the comparison's fixed); absent otherwise. */
  fixed?: true;
  /** The baseline's result, for a case newly failing or fixed whose baseline was read (`base`). */
  base?: BaseCaseView;
  /**
   * Why the case did not pass, as the terminal summary says it (`caseWhy`): the row shows
   * `whyShown` (or `why` when that is absent), its tooltip and the detail `why`. Absent for a
   * case that passed, which keeps the page small.
   */
  why?: string;
  whyShown?: string;
  inputs: string;
  /**
   * The whole output (search covers it all); the detail shows its first `MAX_VALUE_CHARS`. Null
   * when the case errored (its function threw or timed out) and so has none: shown as "no
   * output", never as a `null` the function could have returned.
   */
  output: string | null;
  /** What the target noted about the output (an integer past 2^53 read as another); absent when none. */
  warnings?: string[];
  /** What the target sent (`CaseResult.sent`), cut; only for a case that did not pass (size). */
  sent?: string;
  /**
   * What the case expected and what the diff sets against it; null when nothing is expected.
   * A case with no output (`output` null) shows what it expected and no diff.
   */
  compared: ComparedView | null;
  error: string | null;
  evaluations: EvaluationView[];
  /** Each trial; the page formats its scores as it formats every score. */
  trials:
    | {
        passed: boolean;
        durationMs: number;
        error: string | null;
        scores: { evaluator: string; score: number | null }[];
        /** Why its evaluations failed or errored, `exact: expected "a", got "b"` each, cut. */
        reasons: string[];
      }[]
    | null;
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
  /** Times each case ran (`trials`). */
  trials: number;
  /** Cases whose trials disagreed; null for a run with one trial per case. */
  flaky: number | null;
  /** Model calls the run made (the cache's included); 0 when none. */
  calls: number;
  /** What its model calls cost in US dollars; null when none was made or a model had no price. */
  cost: number | null;
  gate: { name: string; expected: string; actual: string; passed: boolean }[];
  evaluators: { id: string; mean: number | null; passRate: number | null; usage: string | null }[];
  usage: string | null;
  /** Each judge's agreement with the human labels, as the terminal says it; [] when none. */
  agreement: string[];
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
  /** How much of an output the detail shows (`MAX_VALUE_CHARS`); the search covers all of it. */
  maxShownChars: number;
  /** The comparison with a baseline; null without one. */
  comparison: ComparisonView | null;
  /**
   * A baseline was given and the run was not compared with it: the sentence saying so and why
   * (`notComparedSentence`), shown under the verdict; null otherwise.
   */
  notCompared: string | null;
  /**
   * The baseline's cases were read for the changed cases' details: how many the page holds and
   * how many changed (more when the limit left some out); null when they were not read.
   */
  baseCases: { held: number; named: number; unread: string | null } | null;
  /** Why each suite of the baseline gone from the config fails the run (`missingSuites`). */
  missingSuites: { suite: string; text: string }[];
  /** Suites of the baseline gone from the config that only warn here (`goneSuiteWarnings`). */
  goneSuiteWarnings: { suite: string; text: string }[];
  cases: CaseView[];
}

/**
 * The model of `artifact`, whose cases are read from `cases(run)` (an artifact's own, or a
 * case log); `comparison` overrides the one the artifact carries; `notCompared`: why a baseline
 * that was given was not compared with, when the artifact does not say (`notCompared`);
 * `baseline`: the baseline's own results of the cases that changed, scrubbed (`readBaselineCases`).
 */
export function buildReportModel(
  artifact: ResultsArtifact,
  cases: (run: number) => Iterable<CaseResult>,
  comparison: Comparison | undefined = artifact.comparison,
  notCompared?: string,
  baseline?: BaselineCases,
): ReportModel {
  const evaluators = [
    ...new Set(artifact.runs.flatMap((run) => Object.keys(run.summary.evaluators))),
  ];
  const index = new Map(evaluators.map((id, i) => [id, i]));
  const compared = comparison ? withVerdictNote(comparisonView(comparison), artifact.runs) : null;
  // The newly failing cases by run index and id, for the case table's filter.
  const runIndex = new Map(artifact.runs.map((run, i) => [describeRun(run), i]));
  const newlyFailing = new Set(
    (compared?.newlyFailing ?? []).map(({ run, id }) => `${runIndex.get(run) ?? -1} ${id}`),
  );
  const fixed = new Set(
    (comparison?.runs ?? []).flatMap((run) =>
      run.cases.fixed.map((ref) => `${runIndex.get(describeRun(run)) ?? -1} ${ref.id}`),
    ),
  );
  const caseViews: CaseView[] = [];
  artifact.runs.forEach((_, run) => {
    for (const result of cases(run)) {
      const view = caseView(run, result, index);
      if (newlyFailing.has(`${run} ${result.id}`)) view.newlyFailing = true;
      if (fixed.has(`${run} ${result.id}`)) view.fixed = true;
      const owner = artifact.runs[run];
      const base = owner && baseline?.cases.get(baselineKey(owner, result.id));
      if (base) view.base = baseCaseView(base, result, shown, capped);
      caseViews.push(view);
    }
  });
  const verdict = artifact.interrupted ? 'fail' : artifact.verdict;
  // Said only when nothing was compared: `evals report --baseline` may compare results that were not.
  const why = compared === null ? (notCompared ?? artifact.notCompared?.why) : undefined;
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
    maxShownChars: MAX_VALUE_CHARS,
    comparison: compared,
    notCompared: why === undefined ? null : notComparedSentence(why),
    baseCases:
      compared === null || baseline === undefined
        ? null
        : { held: baseline.cases.size, named: baseline.named, unread: baseline.unread ?? null },
    missingSuites: (artifact.missingSuites ?? []).map(({ suite, text }) => ({ suite, text })),
    goneSuiteWarnings: (artifact.goneSuiteWarnings ?? []).map(({ suite, text }) => ({
      suite,
      text,
    })),
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
    trials: run.plan?.trials ?? 1,
    flaky: summary.flaky ?? null,
    calls: summary.usage ? summary.usage.calls + summary.usage.cacheHits : 0,
    cost: summary.usage?.cost ?? null,
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
  // An errored case records `output: null` for "none", which `shown` would write as `null`.
  const errored = result.error !== null && (result.output === null || result.output === undefined);
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
    ...caseWhy(result),
    inputs: capped(pretty(result.data)),
    output: errored ? null : shown(result.output),
    ...(result.warnings !== undefined && result.warnings.length > 0
      ? { warnings: result.warnings.map(capped) }
      : {}),
    ...(result.sent !== undefined && !result.passed ? { sent: capped(result.sent) } : {}),
    compared: cappedCompared(comparedOf(result, shown)),
    error: result.error,
    evaluations: result.evaluations.map(evaluationView),
    trials:
      result.trials?.map((trial) => ({
        passed: trial.passed,
        durationMs: Math.round(trial.durationMs),
        error: trial.error,
        scores: trial.evaluations.map((e) => ({ evaluator: e.evaluator, score: e.score })),
        reasons: trialReasons(trial.evaluations),
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

/** A value as the page shows it: a string as it is, anything else as indented JSON. */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : pretty(value);
}

/** Both sides of a diff cut at `MAX_VALUE_CHARS`: the diff of longer texts is too slow. */
function cappedCompared(view: ComparedView | null): ComparedView | null {
  if (view === null) return null;
  return {
    ...view,
    expected: capped(view.expected),
    actual: view.actual === null ? null : capped(view.actual),
  };
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
  const { start, left } = cutText(text, MAX_VALUE_CHARS);
  if (left === 0) return text;
  return `${start}\n… (${formatCount(left)} more characters: evals show --full prints all)`;
}
