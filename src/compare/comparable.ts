/**
 * Cases reduced to what a comparison or the pull-request reports read. A small module of its
 * own: the run pipeline keeps reduced cases for `--baseline` and the Action without loading the
 * statistics.
 */
import type { CaseSink } from '../run/types.ts';
import type { CaseResult } from '../types.ts';

const NO_DATA: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * A case reduced to what a comparison reads (identity, source, pass status, flakiness, and each
 * evaluation's score, pass status and error): data, output, metadata, thresholds, durations and
 * trial lists are dropped (durations become 0). A run compared with its `--baseline` holds both
 * sides' cases at once; reduced, 100,000 of them take a fraction of the memory.
 */
export function comparableCase(result: CaseResult): CaseResult {
  const reduced: CaseResult = {
    id: result.id,
    contentId: result.contentId,
    source: result.source,
    data: NO_DATA,
    output: null,
    error: result.error,
    durationMs: 0,
    passed: result.passed,
    evaluations: result.evaluations.map((evaluation) => ({
      evaluator: evaluation.evaluator,
      score: evaluation.score,
      threshold: null,
      passed: evaluation.passed,
      metadata: null,
      error: evaluation.error,
      durationMs: 0,
    })),
  };
  if (result.trialPassRate !== undefined) reduced.trialPassRate = result.trialPassRate;
  if (result.flaky !== undefined) reduced.flaky = result.flaky;
  return reduced;
}

/**
 * A case as the pull-request reports read it (the comment, the check run's annotations, the job
 * summary): a case that did not pass, or passed some trials and failed others, whole (its rows
 * show its output, errors and reasons); any other passing case only as a comparison reads it
 * (`comparableCase`: the reports count it, and compare its pass status with the baseline's).
 * The Action holds every case of a run this way: at 200,000 mostly passing cases, a fraction of
 * the whole cases' memory.
 */
export function reportableCase(result: CaseResult): CaseResult {
  return result.passed && result.flaky !== true ? comparableCase(result) : result;
}

/**
 * A `CaseSink` that keeps every finished case reduced (`comparableCase` for a `--baseline`
 * comparison, `reportableCase` for the Action's reports), in testset order, while the whole cases
 * only go to the spool: what is read after the run, without keeping the full cases or reading
 * them back from the spool (which at 100,000 cases cost ~0.4 s of JSON parsing).
 */
export class ReducedCases implements CaseSink {
  readonly #reduce: (result: CaseResult) => CaseResult;
  #runs: (CaseResult | undefined)[][] = [];

  constructor(reduce: (result: CaseResult) => CaseResult) {
    this.#reduce = reduce;
  }

  open(runs: readonly { cases: number }[]): void {
    this.#runs = runs.map((run) => new Array<CaseResult | undefined>(run.cases));
  }

  record(run: number, index: number, result: CaseResult): void {
    const cases = this.#runs[run];
    if (cases !== undefined) cases[index] = this.#reduce(result);
  }

  /** Run `run`'s finished cases, reduced, in testset order (cases an interrupt dropped left out). */
  cases(run: number): CaseResult[] {
    return (this.#runs[run] ?? []).filter((result): result is CaseResult => result !== undefined);
  }
}
