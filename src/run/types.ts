import type {
  CaseResult,
  EngineEvaluator,
  GateSpec,
  Params,
  PassCondition,
  PreparedCase,
  RunResult,
  Target,
  TestsetInfo,
} from '../types/index.ts';
import type { RunControl } from './control.ts';

/**
 * One suite, fully resolved: everything the engine needs is here as values and functions.
 * The YAML path (plan + bind) and `runTestSuite` both compile into this.
 */
export interface SuiteSpec<TCase = Record<string, unknown>, TOutput = unknown> {
  id: string;
  /** What produces each case's output. */
  target: Target<TCase, TOutput>;
  evaluators: EngineEvaluator<TCase, TOutput>[];
  /** One run per grid point, in run order; a suite without a grid has one, with `params: {}`. */
  runs: RunSpec<TCase>[];
  /** Max cases of this suite in flight (target + its evaluators), across all its runs. */
  concurrency: number;
  /** Per target call; `null` for no limit. */
  timeoutMs: number | null;
  /**
   * Times each case runs (target, evaluators and pass condition each time); default 1. Every
   * trial counts against `concurrency` as a case would. With more than one, the case's result
   * aggregates its trials (`aggregateTrials`).
   */
  trials?: number;
  pass: PassCondition<TCase, TOutput>;
  gate: GateSpec;
  /** Copied into each run's `testset` field (`cases` is filled by the engine). */
  testset: Omit<TestsetInfo, 'cases'>;
}

/** One grid point of a suite: its parameters and the cases it plans. */
export interface RunSpec<TCase = Record<string, unknown>> {
  params: Params;
  /** Every case the run plans, in testset order. */
  cases: readonly PreparedCase<TCase>[];
  /** Cases of `cases` that finished in an earlier, interrupted run (`evals run --resume`). */
  resumed?: ResumedCases;
}

/**
 * Cases a run takes over from an earlier, interrupted run: recorded as they were, and not run
 * again.
 */
export interface ResumedCases {
  /** Their positions in the run's `cases`. */
  positions: ReadonlySet<number>;
  /** Their results, each with its position; read once, when the run starts. */
  results(): Iterable<FinishedCase>;
}

/** A case's result from an earlier run, and its position in its run's `cases`. */
export interface FinishedCase {
  index: number;
  result: CaseResult;
}

/** Before any case starts: what the engine is about to do. */
export interface EngineStart {
  /** Case executions to come (cases × runs, finished ones left out; trials count once). */
  total: number;
  /** Each run, in the order of `EngineResult.runs`: its size and how many cases finished before. */
  runs: { suite: string; params: Params; cases: number; finished: number }[];
}

/** A case finished: with trials, once all its trials did, with the aggregated result. */
export interface CaseDone {
  /** The run's position in `EngineResult.runs`. */
  run: number;
  /** The case's position in its run's `cases`: cases finish out of order, this puts them back. */
  index: number;
  suite: string;
  params: Params;
  result: CaseResult;
  /** The prepared case it ran (its testset position, for a shard's artifact). */
  testCase: PreparedCase;
  /** True for a case recorded from an earlier run (`RunSpec.finished`), which did not run now. */
  replayed: boolean;
  /** `result` encoded by `EngineOptions.encode` (the artifact's case line), when given one. */
  json?: string;
}

/**
 * Who hears of the run as it goes (the reporters, through the pipeline). Called synchronously;
 * a listener that throws does not stop the run: the engine rethrows its first error once every
 * case has settled.
 */
export interface EngineListener {
  onStart?(start: EngineStart): void;
  onCaseDone?(done: CaseDone): void;
}

export interface EngineOptions {
  /** Caps cases in flight across the whole process (`--concurrency N`). */
  globalConcurrency?: number;
  /** Interrupt: stop starting new cases, abort in-flight calls, return what finished. */
  signal?: AbortSignal;
  listener?: EngineListener;
  /** Monotonic milliseconds; injectable for tests. Defaults to performance.now(). */
  now?: () => number;
  /**
   * Keep every finished case in memory and return it in `RunResult.cases` (default true). With
   * false the runs come back with empty `cases` (summaries are complete either way): the
   * listener is then the only place they go.
   */
  keepCases?: boolean;
  /**
   * Record each case's testset position in its result (`index`), as a shard's artifact needs for
   * `evals merge` to restore testset order.
   */
  positions?: boolean;
  /**
   * Encodes a value as the artifact writes it (JSON). Each case's result is encoded before it
   * is counted, and the text handed on in `CaseDone.json`, so it is encoded once; a result that
   * cannot be (a `toJSON` or getter that throws) is recorded as errored, saying why.
   */
  encode?: (value: unknown) => string;
  /**
   * The runs hold one shard of their cases (`--shard`): a run that got none is not an empty
   * run, so it is not failed for it (see `evaluateRunGate`).
   */
  shard?: boolean;
  /** Lets the edge that watches the process act on the run (see `RunControl`). */
  control?: RunControl;
}

export interface EngineResult {
  /** One per suite × grid point, in suite order then grid order. */
  runs: RunResult[];
  /** True when `signal` fired before every case finished. */
  interrupted: boolean;
}
