import type {
  CaseResult,
  EngineEvaluator,
  GateSpec,
  Params,
  PassCondition,
  PreparedCase,
  RunResult,
  TestFn,
  TestsetInfo,
} from '../types.ts';

/**
 * One suite, fully resolved: everything the engine needs is here as values and functions.
 * Both the YAML path and `runTestSuite` compile into this.
 */
export interface SuiteSpec<TCase = Record<string, unknown>, TOutput = unknown> {
  id: string;
  cases: readonly PreparedCase<TCase>[];
  fn: TestFn<TCase, TOutput>;
  evaluators: EngineEvaluator<TCase, TOutput>[];
  /** Expanded grid points in run order; `[{}]` when the suite has no grid. */
  grid: Params[];
  /** Max cases of this suite in flight (function + its evaluators), across all grid points. */
  concurrency: number;
  /** Per function call; `null` for no limit. */
  timeoutMs: number | null;
  /**
   * Times each case runs (function, evaluators and pass condition each time); default 1. Every
   * trial counts against `concurrency` as a case would. With more than one, the case's result
   * aggregates its trials (`aggregateTrials`).
   */
  trials?: number;
  pass: PassCondition<TCase, TOutput>;
  gate: GateSpec;
  /** Copied into each run's `testset` field (`cases` is filled by the engine). */
  testset: Omit<TestsetInfo, 'cases'>;
}

/** Progress events, for reporters. Called synchronously; must not throw. */
export interface EngineObserver {
  /**
   * Once, before any case starts: the total number of case executions (cases × grid points;
   * trials do not multiply it, a case counts once).
   */
  onStart?(info: { total: number; runs: { suite: string; params: Params; cases: number }[] }): void;
  /** A case finished: with trials, once all its trials did, with the aggregated result. */
  onCaseDone?(info: { suite: string; params: Params; result: CaseResult }): void;
}

/**
 * Where finished cases go when they are not kept in memory (the streaming artifact writer).
 * Called synchronously, after the observer; like an observer, a sink that throws does not stop
 * the run: the engine rethrows its first error once every case has settled.
 */
export interface CaseSink {
  /** Once, before any case: the size of each run, in the order of `EngineResult.runs`. */
  open(runs: readonly { cases: number }[]): void;
  /**
   * A case finished. `run` is its run's position in `EngineResult.runs`, `index` its position in
   * the suite's `cases`: cases finish out of order, and this is how to put them back in order.
   * `testCase` is the prepared case it ran (its testset position, for a shard's artifact).
   */
  record(run: number, index: number, result: CaseResult, testCase?: PreparedCase): void;
}

export interface EngineOptions {
  /** Caps cases in flight across the whole process (`--concurrency N`). */
  globalConcurrency?: number;
  /** Interrupt: stop starting new cases, abort in-flight calls, return what finished. */
  signal?: AbortSignal;
  observer?: EngineObserver;
  /** Monotonic milliseconds; injectable for tests. Defaults to performance.now(). */
  now?: () => number;
  /**
   * Keep every finished case in memory and return it in `RunResult.cases` (default true). With
   * false the runs come back with empty `cases` (summaries are complete either way): an observer
   * that streams cases out (the artifact writer) is then the only place they go.
   */
  keepCases?: boolean;
  sink?: CaseSink;
}

export interface EngineResult {
  /** One per suite × grid point, in suite order then grid order. */
  runs: RunResult[];
  /** True when `signal` fired before every case finished. */
  interrupted: boolean;
}
