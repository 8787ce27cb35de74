/**
 * The cases of a run as the pull-request reports read them (the comment, the check run's
 * annotations, the job summary). They list the first cases of each run that did not pass (or
 * passed some trials and failed others) with their outputs and reasons, and past a bound only
 * count them; every other case they only count and compare with a baseline. So the first such
 * cases in testset order are kept whole and marked `detailed`, and every other case is kept as a
 * comparison reads it (`comparableCases`): a run where all 200,000 cases fail holds a bounded
 * number of whole cases.
 */
import { comparableCases } from '../compare/comparable.ts';
import { caseLabelField, labelIn } from '../shared/case-label.ts';
import { ownFields } from '../shared/own-key.ts';
import { truncateToWidth } from '../shared/text-table.ts';
import type { CaseResult, ResultsArtifact, RunResult } from '../types/index.ts';

/**
 * The most cases of a run kept whole for the reports (with a larger `max-annotations`, that
 * many): the check run annotates, and the comment and job summary list, the first failing cases
 * of each run in testset order, and past this many a report says how many more there are.
 */
export const REPORTED_WHOLE_CASES = 1_000;

/** A case as the reports hold it. */
export interface ReportedCase extends CaseResult {
  /**
   * True when the case is kept whole, so a report may show its output and reasons; false when it
   * is kept reduced (every passing case, and failing ones past the bound): counted, not shown.
   */
  detailed: boolean;
}

/** A run as the reports hold it: its cases in testset order. */
export interface ReportedRun extends Omit<RunResult, 'cases'> {
  cases: ReportedCase[];
}

/** The artifact as the reports hold it. */
export interface ReportedArtifact extends Omit<ResultsArtifact, 'runs'> {
  runs: ReportedRun[];
}

/**
 * `artifact` with each run's cases read from `cases(run)`, in testset order: the first
 * `wholeAtMost` cases of each run that did not pass or are flaky kept whole, every other case
 * reduced.
 */
export function reportedArtifact(
  artifact: ResultsArtifact,
  cases: (run: number) => Iterable<CaseResult>,
  wholeAtMost: number = REPORTED_WHOLE_CASES,
): ReportedArtifact {
  return {
    ...artifact,
    runs: artifact.runs.map((run, i) => {
      const keep = failingCasesWhole(reducedCases(run), wholeAtMost);
      const kept: ReportedCase[] = [];
      for (const result of cases(i)) {
        const shown = keep(result);
        kept.push({ ...shown, detailed: shown === result });
      }
      return { ...run, cases: kept };
    }),
  };
}

/**
 * The cases of one run a report shows, one after another: the first `wholeAtMost` cases that
 * did not pass or are flaky are returned as they are (whole), so a report can say why each fails;
 * every other case comes back as `reduce` makes it. One per run: it counts the run's cases.
 * `evals compare` reads HEAD's runs through it.
 */
export function failingCasesWhole(
  reduce: (result: CaseResult) => CaseResult,
  wholeAtMost: number = REPORTED_WHOLE_CASES,
): (result: CaseResult) => CaseResult {
  let whole = 0;
  return (result) => {
    const worthShowing = !result.passed || result.flaky === true;
    if (worthShowing && whole < wholeAtMost) {
      whole++;
      return result;
    }
    return reduce(result);
  };
}

/**
 * A case as a comparison reads it, with its trials reduced to their pass status (a flaky line
 * counts them).
 */
/**
 * The most columns of a label a reduced case keeps: the lists show 40 (text) or 50 (markdown).
 * Cut by columns between graphemes and marked `…`, never by code units: `é` written as `e` and
 * an accent is two code units in one column, so 80 code units could read as a whole label of 40.
 */
const KEPT_LABEL_COLUMNS = 80;

/**
 * A run's cases reduced as `comparableCases` does, each also keeping the data field its label
 * comes from (`caseLabel`, cut short), first: a comparison's tables name the cases that now pass
 * (fixed), which are kept reduced, and `caseLabel` of the reduced case reads the same field.
 */
export function labelledComparableCases(
  run: Pick<RunResult, 'plan'>,
): (result: CaseResult) => CaseResult {
  const reduce = comparableCases(run);
  return (result) => {
    const reduced = reduce(result);
    const field = caseLabelField(result);
    const label = labelIn(result, field);
    if (field === null || label === null || Object.hasOwn(reduced.data as object, field)) {
      return reduced;
    }
    const kept = Object.entries(reduced.data as Record<string, unknown>);
    reduced.data = ownFields([[field, truncateToWidth(label, KEPT_LABEL_COLUMNS)], ...kept]);
    return reduced;
  };
}

function reducedCases(run: Pick<RunResult, 'plan'>): (result: CaseResult) => CaseResult {
  const labelled = labelledComparableCases(run);
  return (result) => {
    const reduced = labelled(result);
    if (result.trials !== undefined) {
      reduced.trials = result.trials.map((trial) => ({
        output: null,
        error: trial.error,
        durationMs: 0,
        passed: trial.passed,
        evaluations: [],
      }));
    }
    return reduced;
  };
}
