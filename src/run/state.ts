/**
 * The engine's state while it runs (the suites, their runs, the work units), and what records a
 * finished case: shared by the scheduling (engine.ts) and the trials (trial.ts).
 */
import type { LimitFunction } from 'p-limit';
import type { CaseResult, Params, PreparedCase, TrialResult } from '../types/index.ts';
import type { UserCalls } from './call.ts';
import type { SummaryAccumulator } from './summary.ts';
import type { EngineListener, SuiteSpec } from './types.ts';
import { unencodable } from './unencodable.ts';

export interface Engine {
  now: () => number;
  calls: UserCalls<Unit>;
  /**
   * What each worker is running (one slot per worker, `unit` undefined between units): the
   * cases in flight, for an engine abandoned from outside (`RunControl.abandon`).
   */
  slots: { unit: Unit | undefined }[];
  /** Set once the engine has returned its result, or was abandoned. */
  ended: boolean;
  /** `EngineOptions.encode`. */
  encode: ((value: unknown) => string) | undefined;
  /** `globalConcurrency`: cases in flight across every suite. */
  global: LimitFunction | null;
  listener: EngineListener | undefined;
  keepCases: boolean;
  positions: boolean;
  /** `EngineOptions.shard`. */
  shard: boolean;
  /** Cases run (not replayed) to their end. */
  completed: number;
  /** A listener must not throw; if one does, the run still settles and then rethrows it. */
  listenerError: { error: unknown } | null;
  /**
   * Since when (performance.now()) the event loop has not turned, as far as the workers know:
   * when a check armed a `setImmediate` that has not run yet; undefined once it has run.
   */
  loopHeldSince: number | undefined;
}

export interface SuiteState {
  spec: SuiteSpec;
  runs: RunState[];
  /** Times each case runs (`trials`); 1 for the usual single run. */
  trials: number;
  /** The next trial to start: trial `nextTrial` of case `nextCase` of `runs[nextRun]`. */
  nextRun: number;
  nextCase: number;
  nextTrial: number;
  /** Per evaluator (same index), shared by all runs of the suite; null without `maxConcurrency`. */
  evaluatorLimits: (LimitFunction | null)[];
}

export interface RunState {
  suite: SuiteState;
  /** Position in the engine's run list (a listener's `run`). */
  position: number;
  params: Params;
  cases: readonly PreparedCase[];
  /** Positions of the cases taken over from an earlier run (`RunSpec.resumed`). */
  resumed: ReadonlySet<number> | undefined;
  /** With `keepCases`: indexed like `cases`, so results keep testset order. */
  results: (CaseResult | undefined)[] | null;
  summary: SummaryAccumulator;
  /** With several trials: per case, the trials finished so far (at their trial index). */
  pendingTrials: Map<number, { trials: TrialResult[]; done: number }>;
}

/** One unit of work: a trial of a case. */
export interface Unit {
  run: RunState;
  index: number;
  trial: number;
}

/** A case's result: kept, summed and told to the listener. */
export function record(
  engine: Engine,
  run: RunState,
  index: number,
  result: CaseResult,
  replayed: boolean,
): void {
  const testCase = run.cases[index]!;
  if (engine.positions) result.index = testCase.index;
  let json: string | undefined;
  if (engine.encode !== undefined) {
    try {
      json = engine.encode(result);
    } catch (error) {
      result = unencodable(engine.encode, result, error);
      json = encodeOrBare(engine.encode, result);
    }
  }
  if (run.results !== null) run.results[index] = result;
  run.summary.add(result);
  if (!replayed) engine.completed++;
  tell(engine, () =>
    engine.listener?.onCaseDone?.({
      run: run.position,
      index,
      suite: run.suite.spec.id,
      params: run.params,
      result,
      testCase,
      replayed,
      json,
    }),
  );
}

/**
 * The repaired result's JSON; when even that fails (a part nobody thought of throws), the case
 * keeps only its identity and its error, which always encode.
 */
function encodeOrBare(encode: (value: unknown) => string, result: CaseResult): string {
  try {
    return encode(result);
  } catch {
    Object.assign(result, { data: {}, output: null, evaluations: [] });
    delete result.usage;
    delete result.trials;
    return encode(result);
  }
}

/** Calls the listener; its first error is kept, to be thrown once the run has settled. */
export function tell(engine: Engine, call: () => void): void {
  try {
    call();
  } catch (error) {
    engine.listenerError ??= { error };
  }
}
