/**
 * One run of HEAD against the same run of BASE: cases paired by id (and content id), the pass
 * rate's McNemar test, each shared evaluator's paired bootstrap, and the label of every row.
 */
import type { CaseResult, RunResult } from '../types/index.ts';
import type {
  CaseChanges,
  CaseRef,
  ChangeLabel,
  ComparisonSettings,
  EvaluatorChange,
  PassRateChange,
  RunComparison,
} from '../types/comparison.ts';
import { mcnemarExact, pairedBootstrap } from './stats.ts';

/**
 * Compares a run of HEAD with its run of BASE: cases match by `id` when their `contentId` is
 * also equal (an edited row is `contentChanged`, kept out of the statistics); evaluators found in
 * one run only are listed.
 */
export function compareRuns(
  baseRun: RunResult,
  headRun: RunResult,
  settings: ComparisonSettings,
): RunComparison {
  const baseById = firstById(baseRun.cases);
  const headById = firstById(headRun.cases);

  const paired: [CaseResult, CaseResult][] = [];
  const cases: CaseChanges = {
    newlyFailing: [],
    fixed: [],
    added: [],
    removed: [],
    contentChanged: [],
    flaky: [],
  };
  for (const head of headById.values()) {
    const base = baseById.get(head.id);
    if (base === undefined) cases.added.push(caseRef(head));
    else if (base.contentId !== head.contentId) cases.contentChanged.push(caseRef(head));
    else {
      paired.push([base, head]);
      if (base.passed && !head.passed) cases.newlyFailing.push(caseRef(head));
      if (!base.passed && head.passed) cases.fixed.push(caseRef(head));
    }
    if (head.flaky === true) {
      cases.flaky.push({ ...caseRef(head), trialPassRate: head.trialPassRate ?? null });
    }
  }
  for (const base of baseById.values()) {
    if (!headById.has(base.id)) cases.removed.push(caseRef(base));
  }

  const baseEvaluators = evaluatorIds(baseRun);
  const headEvaluators = evaluatorIds(headRun);
  const evaluators = headEvaluators
    .filter((id) => baseEvaluators.includes(id))
    .map((id) => compareEvaluator(id, paired, settings));

  return {
    suite: headRun.suite,
    params: headRun.params,
    passRate: comparePassRate(paired, cases, settings),
    evaluators,
    evaluatorsOnlyInBase: baseEvaluators.filter((id) => !headEvaluators.includes(id)),
    evaluatorsOnlyInHead: headEvaluators.filter((id) => !baseEvaluators.includes(id)),
    cases,
  };
}

/** Case ids are unique in a run the engine wrote; should one repeat, its first case counts. */
function firstById(cases: readonly CaseResult[]): Map<string, CaseResult> {
  const byId = new Map<string, CaseResult>();
  for (const result of cases) if (!byId.has(result.id)) byId.set(result.id, result);
  return byId;
}

function caseRef(result: CaseResult): CaseRef {
  return {
    id: result.id,
    source: result.source === null ? null : { file: result.source.file, line: result.source.line },
  };
}

/**
 * The run's evaluators in configuration order: the summary's, then any that only cases mention
 * (an artifact assembled by hand), so an evaluator is never silently missing from the report.
 */
function evaluatorIds(run: RunResult): string[] {
  const ids = new Set(Object.keys(run.summary.evaluators));
  for (const result of run.cases) {
    for (const evaluation of result.evaluations) ids.add(evaluation.evaluator);
  }
  return [...ids];
}

function comparePassRate(
  paired: readonly [CaseResult, CaseResult][],
  cases: CaseChanges,
  settings: ComparisonSettings,
): PassRateChange {
  const n = paired.length;
  const passToFail = cases.newlyFailing.length;
  const failToPass = cases.fixed.length;
  let basePassed = 0;
  for (const [base] of paired) if (base.passed) basePassed++;
  const headPassed = basePassed - passToFail + failToPass;
  const pValue = mcnemarExact(passToFail, failToPass);

  const alpha = 1 - settings.confidence;
  let label: ChangeLabel = 'unchanged';
  if (n < settings.minPaired) label = 'too few cases';
  else if (pValue < alpha) label = failToPass > passToFail ? 'improved' : 'regressed';

  return {
    paired: n,
    baseRate: n === 0 ? null : basePassed / n,
    headRate: n === 0 ? null : headPassed / n,
    delta: n === 0 ? null : (headPassed - basePassed) / n,
    passToFail,
    failToPass,
    pValue,
    label,
  };
}

function compareEvaluator(
  evaluator: string,
  paired: readonly [CaseResult, CaseResult][],
  settings: ComparisonSettings,
): EvaluatorChange {
  const diffs: number[] = [];
  let baseTotal = 0;
  let headTotal = 0;
  for (const [base, head] of paired) {
    const before = scoreOf(base, evaluator);
    const after = scoreOf(head, evaluator);
    // Pairwise exclusion: a case errored or unscored on either side says nothing about a change.
    if (before === null || after === null) continue;
    diffs.push(after - before);
    baseTotal += before;
    headTotal += after;
  }
  const n = diffs.length;
  if (n === 0) {
    return {
      evaluator,
      paired: 0,
      baseMean: null,
      headMean: null,
      delta: null,
      ci: null,
      pValue: null,
      label: 'too few cases',
    };
  }
  const result = pairedBootstrap(diffs, settings);
  return {
    evaluator,
    paired: n,
    baseMean: baseTotal / n,
    headMean: headTotal / n,
    delta: result.mean,
    ci: { low: result.low, high: result.high },
    pValue: result.pValue,
    label: labelFromInterval(n, result.low, result.high, settings.minPaired),
  };
}

/**
 * The label follows from the interval alone, so a row is never called regressed (or improved)
 * while its interval still contains 0.
 */
function labelFromInterval(n: number, low: number, high: number, minPaired: number): ChangeLabel {
  if (n < minPaired) return 'too few cases';
  if (low > 0) return 'improved';
  if (high < 0) return 'regressed';
  return 'unchanged';
}

/** The case's score for an evaluator; `null` when absent, errored or not a finite number. */
function scoreOf(result: CaseResult, evaluator: string): number | null {
  for (const evaluation of result.evaluations) {
    if (evaluation.evaluator !== evaluator) continue;
    if (evaluation.error !== null || evaluation.score === null) return null;
    return Number.isFinite(evaluation.score) ? evaluation.score : null;
  }
  return null;
}
