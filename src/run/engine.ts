import pLimit, { type LimitFunction } from 'p-limit';
import { describeValue } from '../shared/errors.ts';
import type { CaseResult, EngineEvaluator, RunResult } from '../types/index.ts';
import { UserCalls } from './call.ts';
import type { AbandonedRun, Blame, RunningCase } from './control.ts';
import { record, tell, type Engine, type RunState, type SuiteState, type Unit } from './state.ts';
import { ownerLimit } from './evaluator-limits.ts';
import { evaluateRunGate } from './gate.ts';
import { agreementOf, SummaryAccumulator } from './summary.ts';
import { abandonCase, runTrial } from './trial.ts';
import type {
  EngineOptions,
  EngineResult,
  EngineStart,
  ResumedCases,
  RunSpec,
  SuiteSpec,
} from './types.ts';

/**
 * How long the workers may keep the event loop out. A target and evaluators that answer
 * synchronously run case after case in microtasks, which the event loop waits on: without a
 * pause, Ctrl-C, timers and progress output would wait for the whole run. See `loopHeldOut`.
 */
const YIELD_EVERY_MS = 20;

/**
 * Runs every suite × grid point and returns one `RunResult` each, in suite then run order.
 *
 * All suites run at once. A case (target call, then its evaluators concurrently, then the pass
 * condition) holds one of its suite's `concurrency` slots, shared by all its runs, and, with
 * `globalConcurrency`, one slot of the global limiter, taken in that order so they cannot
 * deadlock. Each evaluator with `maxConcurrency` has one limiter per suite, or, with a
 * `limitOwner`, the one limiter of that object in every suite and engine (evaluator-limits.ts).
 * The suite slots are a pool of `concurrency` workers pulling cases in testset order, run after
 * run. Failures of
 * user code are recorded in the results and the run goes on; this only rejects on engine bugs,
 * invalid concurrency settings, or a listener that throws (after every case has settled).
 *
 * With `trials: N` > 1 each case runs N times, each trial a unit of work of its own, pulled in
 * order, so the trials of one case usually run side by side; the case is recorded once all its
 * trials finished (see `aggregateTrials`).
 *
 * Cases a run takes over from an earlier run (`resumed`) are recorded first, as they were, and
 * not run again.
 *
 * On interrupt (`options.signal`), no new case starts, every pending call's signal is aborted
 * and the engine stops waiting for it at once (calls that ignore their signal are abandoned, not
 * awaited), and each run keeps only the cases that finished before the interrupt (all of their
 * trials). Synchronous user code cannot hold the interrupt off: the workers let the event loop
 * in every {@link YIELD_EVERY_MS} ms.
 *
 * `options.control` lets the edge that watches the process act on the run: when the event loop
 * empties, calls still waiting are errored as never settled and the run goes on; when the
 * process exits under it, the run is abandoned synchronously (see `RunControl`). With
 * `options.encode`, each case's result is encoded (the artifact's case line) before it is
 * counted: one that cannot be is recorded as errored, saying why (`unencodable`).
 */
export async function runSuites(
  suites: SuiteSpec[],
  options: EngineOptions = {},
): Promise<EngineResult> {
  const now = options.now ?? (() => performance.now());
  const engine: Engine = {
    now,
    calls: new UserCalls(now),
    slots: [],
    ended: false,
    encode: options.encode,
    global:
      options.globalConcurrency === undefined
        ? null
        : createLimit(options.globalConcurrency, 'globalConcurrency'),
    listener: options.listener,
    keepCases: options.keepCases ?? true,
    positions: options.positions ?? false,
    shard: options.shard ?? false,
    completed: 0,
    listenerError: null,
    loopHeldSince: undefined,
  };

  const states: SuiteState[] = [];
  for (const spec of suites) {
    const position = states.reduce((sum, suite) => sum + suite.runs.length, 0);
    states.push(suiteState(engine, spec, position));
  }
  const runs = states.flatMap((suite) => suite.runs);
  const unfinished = (run: RunState): number => run.cases.length - (run.resumed?.size ?? 0);
  const total = runs.reduce((sum, run) => sum + unfinished(run), 0);
  const start: EngineStart = {
    total,
    runs: runs.map((run) => ({
      suite: run.suite.spec.id,
      params: run.params,
      cases: run.cases.length,
      finished: run.resumed?.size ?? 0,
    })),
  };
  tell(engine, () => engine.listener?.onStart?.(start));
  for (const [i, run] of runs.entries()) replayResumed(engine, run, specOf(suites, i).resumed);

  options.control?.attach({
    neverSettled: () => engine.calls.neverSettled(NEVER_SETTLED),
    abandon: (reason, blame) => abandon(engine, runs, total, reason, blame),
    snapshot: () => ({
      runs: runs.map((run) => ({ ...toRunResult(run, engine.shard), cases: [] })),
      interrupted: true,
    }),
  });
  const { signal } = options;
  const onAbort = (): void => engine.calls.interrupt(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const workers: Promise<void>[] = [];
    for (const suite of states) {
      const units = suite.runs.reduce((sum, run) => sum + unfinished(run), 0) * suite.trials;
      const count = Math.min(suite.spec.concurrency, units);
      for (let i = 0; i < count; i++) workers.push(suiteWorker(engine, suite));
    }
    await Promise.all(workers);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    options.control?.attach(undefined);
  }
  if (engine.ended) {
    // Abandoned from outside while it ran (the process is exiting): what it had is gone out.
    return { runs: runs.map((run) => toRunResult(run, engine.shard)), interrupted: true };
  }
  engine.ended = true;

  if (engine.listenerError !== null) throw engine.listenerError.error;
  return {
    runs: runs.map((run) => toRunResult(run, engine.shard)),
    interrupted: engine.calls.interrupted && engine.completed < total,
  };
}

/** The error of a call still waiting when the event loop emptied. */
export const NEVER_SETTLED =
  'never settled: nothing was left to run while it waited, so its promise can no longer resolve (a timeout bounds such a call)';

/**
 * Ends the run at once, synchronously, for a process that is exiting: every pending call is
 * abandoned, the cases `blame` names are recorded as errored with `reason` (each trial not yet
 * finished too), and the runs are returned as they stand.
 */
function abandon(
  engine: Engine,
  runs: RunState[],
  total: number,
  reason: string,
  blame: Blame,
): AbandonedRun | undefined {
  if (engine.ended) return undefined;
  const current = engine.calls.current;
  engine.calls.interrupt(new Error(reason));
  const inFlight: Unit[] = [];
  const seen = new Set<string>();
  for (const unit of [current, ...engine.slots.map((slot) => slot.unit)]) {
    if (unit === null || unit === undefined) continue;
    const key = `${unit.run.position}:${unit.index}`;
    if (seen.has(key)) continue;
    seen.add(key);
    inFlight.push(unit);
  }
  // The culprit's result is its error (run again, it would end the process again); the other
  // cases in flight never finished, so they stay out of the artifact for --resume to run.
  const recorded = blame === 'none' ? [] : current !== null ? [current] : inFlight;
  for (const unit of recorded) abandonCase(engine, unit.run, unit.index, reason);
  engine.ended = true;
  return {
    result: {
      runs: runs.map((run) => toRunResult(run, engine.shard)),
      interrupted: engine.completed < total,
    },
    running: inFlight.map(runningCase),
    recorded: recorded.length,
    current: current === null ? null : runningCase(current),
  };
}

function runningCase({ run, index }: Unit): RunningCase {
  const testCase = run.cases[index]!;
  return {
    suite: run.suite.spec.id,
    params: run.params,
    id: testCase.id,
    source: testCase.source,
  };
}

function suiteState(engine: Engine, spec: SuiteSpec, firstPosition: number): SuiteState {
  checkConcurrency(spec.concurrency, `suite "${spec.id}": concurrency`);
  const trials = spec.trials ?? 1;
  if (!(Number.isInteger(trials) && trials >= 1)) {
    throw new RangeError(
      `suite "${spec.id}": trials must be a positive integer, got ${describeValue(trials)}`,
    );
  }
  const suite: SuiteState = {
    spec,
    runs: [],
    trials,
    nextRun: 0,
    nextCase: 0,
    nextTrial: 0,
    evaluatorLimits: spec.evaluators.map((evaluator) =>
      evaluator.maxConcurrency === undefined || evaluator.maxConcurrency === Infinity
        ? null
        : evaluatorLimit(spec, evaluator),
    ),
  };
  const evaluatorIds = spec.evaluators.map((evaluator) => evaluator.id);
  const agreement = agreementOf(spec.evaluators);
  suite.runs = spec.runs.map((run, i) => ({
    suite,
    position: firstPosition + i,
    params: run.params,
    cases: run.cases,
    resumed: run.resumed?.positions,
    results: engine.keepCases ? new Array<CaseResult | undefined>(run.cases.length) : null,
    summary: new SummaryAccumulator(evaluatorIds, {
      trials,
      gate: spec.gate,
      ...(agreement ? { agreement } : {}),
    }),
    pendingTrials: new Map(),
  }));
  return suite;
}

/** The `RunSpec` of the engine's run at `position`. */
function specOf(suites: SuiteSpec[], position: number): RunSpec {
  let at = position;
  for (const spec of suites) {
    if (at < spec.runs.length) return spec.runs[at]!;
    at -= spec.runs.length;
  }
  throw new RangeError(`no run at position ${position}`);
}

/** The cases an earlier run finished, recorded as they were. */
function replayResumed(engine: Engine, run: RunState, resumed: ResumedCases | undefined): void {
  if (resumed === undefined) return;
  let count = 0;
  for (const { index, result } of resumed.results()) {
    if (!resumed.positions.has(index)) {
      throw new RangeError(`a resumed case has position ${index}, not among the run's resumed`);
    }
    record(engine, run, index, result, true);
    count++;
  }
  if (count !== resumed.positions.size) {
    throw new RangeError(
      `the resumed run gave ${count} results for ${resumed.positions.size} positions`,
    );
  }
}

function checkConcurrency(concurrency: number, label: string): void {
  if (!(Number.isInteger(concurrency) && concurrency >= 1) && concurrency !== Infinity) {
    throw new RangeError(`${label} must be a positive integer, got ${describeValue(concurrency)}`);
  }
}

/** The limiter of an evaluator with `maxConcurrency`: its owner's, else one of the suite's own. */
function evaluatorLimit(spec: SuiteSpec, evaluator: EngineEvaluator): LimitFunction {
  const concurrency = evaluator.maxConcurrency!;
  const label = `suite "${spec.id}": evaluator "${evaluator.id}": maxConcurrency`;
  if (evaluator.limitOwner === undefined) return createLimit(concurrency, label);
  checkConcurrency(concurrency, label);
  return ownerLimit(evaluator.limitOwner, concurrency);
}

function createLimit(concurrency: number, label: string): LimitFunction {
  checkConcurrency(concurrency, label);
  return pLimit(concurrency);
}

/** One suite slot: runs the suite's next trial until none is left or the run is interrupted. */
async function suiteWorker(engine: Engine, suite: SuiteState): Promise<void> {
  const slot: { unit: Unit | undefined } = { unit: undefined };
  engine.slots.push(slot);
  for (;;) {
    slot.unit = undefined;
    if (engine.calls.interrupted) return;
    const unit = nextUnit(suite);
    if (unit === undefined) return;
    if (engine.global === null) {
      slot.unit = unit;
      await runTrial(engine, unit);
    } else {
      // Only a unit holding its global slot is in flight, not one queued for it.
      await engine.global(() => {
        slot.unit = unit;
        return runTrial(engine, unit);
      });
    }
    if (loopHeldOut(engine)) await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Whether the event loop has been kept out for {@link YIELD_EVERY_MS}: a `setImmediate` armed by
 * the first check after the loop's last turn shows when it turns again, and a worker that finds
 * it still waiting after that long waits for the turn too (all of them do, in a synchronous
 * suite, and then the loop turns). Counting from the last pause instead made every worker that
 * finished late in a wave of timers pause, in a suite whose calls wait on timers or I/O and let
 * the loop turn all the time: `bench/` (b), 2,000 calls of 20 ms at concurrency 100, lost ~15%
 * of its wall to those pauses.
 */
function loopHeldOut(engine: Engine): boolean {
  const now = performance.now();
  if (engine.loopHeldSince === undefined) {
    engine.loopHeldSince = now;
    setImmediate(() => {
      engine.loopHeldSince = undefined;
    });
    return false;
  }
  return now - engine.loopHeldSince >= YIELD_EVERY_MS;
}

/** The suite's next trial in testset order, run after run, skipping resumed cases. */
function nextUnit(suite: SuiteState): Unit | undefined {
  for (;;) {
    const run = suite.runs[suite.nextRun];
    if (run === undefined) return undefined;
    const index = suite.nextCase;
    if (index >= run.cases.length) {
      suite.nextRun++;
      suite.nextCase = 0;
      continue;
    }
    if (run.resumed?.has(index) === true) {
      suite.nextCase++;
      continue;
    }
    const trial = suite.nextTrial++;
    if (suite.nextTrial >= suite.trials) {
      suite.nextTrial = 0;
      suite.nextCase++;
    }
    return { run, index, trial };
  }
}

function toRunResult(run: RunState, shard: boolean): RunResult {
  const { spec } = run.suite;
  // `filter` skips the holes left by cases an interrupt dropped, keeping testset order.
  const cases = run.results?.filter((result): result is CaseResult => result !== undefined) ?? [];
  const summary = run.summary.summary();
  // A `pass:` function decides each case itself: evaluators that judged none leave it the judge.
  const passDecides = typeof spec.pass === 'function';
  const gate = evaluateRunGate(summary, spec.gate, run.cases.length, shard, passDecides);
  return {
    suite: spec.id,
    params: run.params,
    testset: { ...spec.testset, cases: run.cases.length },
    verdict: gate.verdict,
    gate: { conditions: gate.conditions },
    summary,
    cases,
  };
}
