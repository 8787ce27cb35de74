/**
 * Cases reduced to what a comparison or the pull-request reports read. A small module of its
 * own: the run pipeline keeps reduced cases for `--baseline` and the Action without loading the
 * statistics.
 */
import type { CaseSink } from '../run/types.ts';
import { markUndetailed } from '../report/detail.ts';
import type { CaseResult, EvaluationResult } from '../types.ts';

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
    evaluations: result.evaluations.map(reducedEvaluation),
  };
  if (result.trialPassRate !== undefined) reduced.trialPassRate = result.trialPassRate;
  if (result.flaky !== undefined) reduced.flaky = result.flaky;
  return reduced;
}

/** An evaluation reduced to what a comparison reads: score, pass status and error. */
function reducedEvaluation(evaluation: EvaluationResult): EvaluationResult {
  return {
    evaluator: evaluation.evaluator,
    score: evaluation.score,
    threshold: null,
    passed: evaluation.passed,
    metadata: null,
    error: evaluation.error,
    durationMs: 0,
  };
}

/**
 * A case as the pull-request reports read it (the comment, the check run's annotations, the job
 * summary): a case that did not pass, or passed some trials and failed others, whole (its rows
 * show its output, errors and reasons); any other passing case only as a comparison reads it
 * (`comparableCase`: the reports count it, and compare its pass status with the baseline's).
 * The Action holds every case of a run this way, the cases kept whole bounded per run
 * (`ReducedCases` with `wholeAtMost`): at 200,000 cases, a fraction of the whole cases' memory.
 */
export function reportableCase(result: CaseResult): CaseResult {
  return result.passed && result.flaky !== true ? comparableCase(result) : result;
}

/**
 * The most cases of a run the Action keeps whole for its reports (with a larger
 * `max-annotations`, that many): the check run annotates, and the comment and job summary list,
 * the first failing cases of each run in testset order, and past this many a report says how
 * many more there are. Kept whole past it, a run where everything fails would hold every case.
 */
export const REPORTED_WHOLE_CASES = 1_000;

/**
 * A case that did not pass (or is flaky) kept past the whole ones' bound: as a comparison reads
 * it, its trials reduced to their pass status (the flaky line counts them), and marked as not
 * detailed so the reports count it without showing it.
 */
function undetailedCase(result: CaseResult): CaseResult {
  const reduced = comparableCase(result);
  if (result.trials !== undefined) {
    reduced.trials = result.trials.map((trial) => ({
      output: null,
      error: trial.error,
      durationMs: 0,
      passed: trial.passed,
      evaluations: [],
    }));
  }
  return markUndetailed(reduced);
}

/**
 * A `CaseSink` that keeps every finished case reduced (`comparableCase` for a `--baseline`
 * comparison, `reportableCase` for the Action's reports), in testset order, while the whole cases
 * only go to the spool: what is read after the run, without keeping the full cases or reading
 * them back from the spool (which at 100,000 cases cost ~0.4 s of JSON parsing). Also fed in
 * order by readers of an artifact or of a spool.
 *
 * With `wholeAtMost`, the cases `reduce` keeps whole (hands back as they are) are kept so only
 * for the first `wholeAtMost` of them in each run by testset position, the rest as
 * `undetailedCase`. Cases finish out of order, so each run keeps the positions of its whole cases
 * in a max-heap: a case placed before the last of them takes that one's place, which is reduced.
 */
export class ReducedCases implements CaseSink {
  readonly #reduce: (result: CaseResult) => CaseResult;
  readonly #wholeAtMost: number;
  #runs: (CaseResult | undefined)[][] = [];
  /** Per run, the positions of the cases kept whole, as a max-heap. */
  #whole: number[][] = [];

  constructor(reduce: (result: CaseResult) => CaseResult, options: { wholeAtMost?: number } = {}) {
    this.#reduce = reduce;
    this.#wholeAtMost = options.wholeAtMost ?? Infinity;
  }

  open(runs: readonly { cases: number }[]): void {
    this.#runs = runs.map((run) => new Array<CaseResult | undefined>(run.cases));
    this.#whole = runs.map(() => []);
  }

  record(run: number, index: number, result: CaseResult): void {
    const cases = this.#runs[run];
    const whole = this.#whole[run];
    if (cases === undefined || whole === undefined) return;
    const reduced = this.#reduce(result);
    if (reduced !== result || this.#wholeAtMost === Infinity) {
      cases[index] = reduced;
      return;
    }
    if (whole.length < this.#wholeAtMost) {
      heapPush(whole, index);
      cases[index] = result;
      return;
    }
    const last = whole[0];
    if (last === undefined || index > last) {
      cases[index] = undetailedCase(result);
      return;
    }
    heapReplaceTop(whole, index);
    cases[index] = result;
    const displaced = cases[last];
    if (displaced !== undefined) cases[last] = undetailedCase(displaced);
  }

  /** Run `run`'s finished cases, reduced, in testset order (cases an interrupt dropped left out). */
  cases(run: number): CaseResult[] {
    return (this.#runs[run] ?? []).filter((result): result is CaseResult => result !== undefined);
  }
}

function heapPush(heap: number[], value: number): void {
  heap.push(value);
  let at = heap.length - 1;
  while (at > 0) {
    const parent = (at - 1) >> 1;
    if (heap[parent]! >= value) break;
    heap[at] = heap[parent]!;
    at = parent;
  }
  heap[at] = value;
}

/** Replaces the largest value with `value` (smaller than it) and restores the heap. */
function heapReplaceTop(heap: number[], value: number): void {
  let at = 0;
  for (;;) {
    const left = at * 2 + 1;
    if (left >= heap.length) break;
    const right = left + 1;
    const child = right < heap.length && heap[right]! > heap[left]! ? right : left;
    if (heap[child]! <= value) break;
    heap[at] = heap[child]!;
    at = child;
  }
  heap[at] = value;
}
