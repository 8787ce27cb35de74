import pLimit, { type LimitFunction } from 'p-limit';
import { describeValue } from '../errors.ts';
import type {
  CaseResult,
  EngineEvaluator,
  EvaluationResult,
  PreparedCase,
  Params,
  RunResult,
  TrialResult,
} from '../types.ts';
import {
  CallScope,
  EvaluatorCallArgs,
  FnCallArgs,
  PendingCalls,
  describeError,
  isThenable,
} from './call.ts';
import { erroredEvaluation, toEvaluationResult } from './evaluation.ts';
import { evaluateRunGate, SummaryAccumulator } from './summary.ts';
import { aggregateTrials } from './trials.ts';
import type { CaseSink, EngineObserver, EngineOptions, EngineResult, SuiteSpec } from './types.ts';

/**
 * Milliseconds since `started`, to the microsecond. Finer digits are timer noise, and writing
 * them costs: a double like 0.001502000000073167 takes V8 several times longer to print than
 * 0.002, and the artifact carries four durations per case.
 */
function elapsedMs(now: () => number, started: number): number {
  return roundMs(now() - started);
}

function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/**
 * The `evaluator` name of the synthetic evaluation recorded when a pass-condition function
 * throws, times out or returns a non-boolean. The case is then failed, not errored: `errored`
 * is reserved for the function under test, and the evaluation list is where a report already
 * looks for why a case failed. Config validation should reserve this id.
 */
export const PASS_CONDITION_EVALUATOR = 'pass';

interface Engine {
  now: () => number;
  calls: PendingCalls;
  /** `globalConcurrency`: cases in flight across every suite. */
  global: LimitFunction | null;
  observer: EngineObserver | undefined;
  sink: CaseSink | undefined;
  completed: number;
  /** An observer or sink must not throw; if one does, the run still settles and then rethrows it. */
  observerError: { error: unknown } | null;
  /** When (performance.now()) the workers next check that the event loop had a turn. */
  breatheAt: number;
  /** Whether the event loop had a turn since the last check; see {@link breather}. */
  loopRan: boolean;
  /** The pause every worker waits on while the event loop runs, once one is due. */
  pause: Promise<void> | null;
  /**
   * When the last synchronous call timed ended: the next call of the same case starts there
   * instead of reading the clock again (a clock read costs ~40 ns, and a case with three
   * evaluators read it eight times).
   */
  lastEnd: number;
}

/**
 * How long the workers may keep the event loop out. Synchronous user code (a function and
 * evaluators that return plain values) runs case after case in microtasks, which the event loop
 * waits on: without a pause, Ctrl-C, timers and progress output would wait for the whole run.
 */
const BREATHE_EVERY_MS = 20;

/**
 * Undefined while the workers may go on; else the pause to await. Every BREATHE_EVERY_MS the
 * workers check whether the event loop had a turn since the last check (a `setImmediate` left
 * then has run). Calls that wait on I/O or timers give it turns all the time, and then nothing
 * pauses; only when none ran do all workers wait on one shared `setImmediate` (the event loop
 * runs only once every worker has stopped queueing microtasks), which fires after the loop has
 * handled what came in: a signal, a timer.
 */
function breather(engine: Engine): Promise<void> | undefined {
  if (engine.pause !== null) return engine.pause;
  const now = performance.now();
  if (now < engine.breatheAt) return undefined;
  engine.breatheAt = now + BREATHE_EVERY_MS;
  if (engine.loopRan) {
    watchLoop(engine);
    return undefined;
  }
  engine.pause = new Promise((resolve) =>
    setImmediate(() => {
      engine.pause = null;
      engine.breatheAt = performance.now() + BREATHE_EVERY_MS;
      watchLoop(engine);
      resolve();
    }),
  );
  return engine.pause;
}

/** Notes, through `loopRan`, when the event loop next gets a turn. */
function watchLoop(engine: Engine): void {
  engine.loopRan = false;
  setImmediate(() => {
    engine.loopRan = true;
  }).unref();
}

interface SuiteState {
  spec: SuiteSpec;
  /** The suite's grid points, fed to its workers in order. */
  runs: RunState[];
  /** Times each case runs (`trials`); 1 for the usual single run. */
  trials: number;
  /** Cursor of the next trial to start: trial `nextTrial` of `runs[nextRun].results[nextCase]`. */
  nextRun: number;
  nextCase: number;
  nextTrial: number;
  /** Per evaluator (same index), shared by all grid points; null without `maxConcurrency`. */
  evaluatorLimits: (LimitFunction | null)[];
  evaluatorIds: string[];
}

interface RunState {
  suite: SuiteState;
  /** Position in the engine's run list (the sink's `run`). */
  position: number;
  params: Params;
  /** Cases in the testset (the run's size, whatever finishes). */
  size: number;
  /** The suite's cases, in testset order. */
  cases: readonly PreparedCase[];
  /**
   * With `keepCases`: indexed like the testset, so results keep its order whatever order cases
   * finish in. Otherwise null: a finished case only feeds `summary`, the observer and the sink.
   */
  results: (CaseResult | undefined)[] | null;
  /** The run's summary so far, fed by every finished case. */
  summary: SummaryAccumulator;
  /**
   * With several trials: per case, the trials finished so far (at their trial index) and how
   * many that is; the case is recorded when the last one lands. Empty for a single trial.
   */
  pendingTrials: ({ trials: TrialResult[]; done: number } | undefined)[];
}

/**
 * Runs every suite × grid point and returns one `RunResult` each, in suite then grid order.
 *
 * All suites run at once. A case (function call, then its evaluators concurrently, then the
 * pass condition) holds one of its suite's `concurrency` slots, shared by all its grid points,
 * and, with `globalConcurrency`, one slot of the global limiter, taken in that order so they
 * cannot deadlock. Each evaluator with `maxConcurrency` has one limiter per suite.
 *
 * The suite slots are a pool of `concurrency` workers pulling cases in testset order, grid
 * point after grid point, rather than a p-limit queue holding every case: queueing 10,000
 * cases up front cost ~50 ms and 10,000 pending promises, the pool ~1 ms. The global and
 * evaluator limits are p-limit, paid per call only when set. Failures of user code are
 * recorded in the results and the run goes on; this only rejects on engine bugs, invalid
 * concurrency settings, or an observer that throws (after every case has settled).
 *
 * With `trials: N` > 1 each case runs N times, each trial a unit of work of its own (it holds a
 * suite slot and a global slot like a case does), pulled in order, so the trials of one case
 * usually run side by side. The case is recorded, and reported to the observer, once all its
 * trials finished (see `aggregateTrials` for how they are folded); the observer's `total`
 * still counts cases.
 *
 * On interrupt (`options.signal`), no new case starts, every pending call's signal is aborted
 * and the engine stops waiting for it at once (calls that ignore their signal are abandoned,
 * not awaited), and each run keeps only the cases that finished before the interrupt (all of
 * their trials). Synchronous user code cannot hold the interrupt off: the workers let the event
 * loop in whenever it has had no turn for {@link BREATHE_EVERY_MS} ms.
 *
 * Memory: each run's summary is folded case by case (`SummaryAccumulator`), so with
 * `keepCases: false` a finished case is handed to the sink (which streams it to the artifact)
 * and dropped; the returned runs then have empty `cases`. Only consumers that need
 * every case afterwards (JUnit, a baseline comparison, the Action's report, `runTestSuite`'s
 * return value) ask to keep them.
 */
export async function runSuites(
  suites: SuiteSpec[],
  options: EngineOptions = {},
): Promise<EngineResult> {
  const engine: Engine = {
    now: options.now ?? (() => performance.now()),
    calls: new PendingCalls(),
    global:
      options.globalConcurrency === undefined
        ? null
        : createLimit(options.globalConcurrency, 'globalConcurrency'),
    observer: options.observer,
    sink: options.sink,
    completed: 0,
    observerError: null,
    breatheAt: performance.now() + BREATHE_EVERY_MS,
    loopRan: false,
    pause: null,
    lastEnd: 0,
  };
  watchLoop(engine);

  const keepCases = options.keepCases ?? true;
  const suiteStates: SuiteState[] = [];
  const runs: RunState[] = [];
  for (const spec of suites) {
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
          : createLimit(
              evaluator.maxConcurrency,
              `suite "${spec.id}": evaluator "${evaluator.id}": maxConcurrency`,
            ),
      ),
      evaluatorIds: spec.evaluators.map((evaluator) => evaluator.id),
    };
    for (const params of spec.grid) {
      suite.runs.push({
        suite,
        position: runs.length + suite.runs.length,
        params,
        size: spec.cases.length,
        cases: spec.cases,
        results: keepCases ? new Array<CaseResult | undefined>(spec.cases.length) : null,
        summary: new SummaryAccumulator(suite.evaluatorIds, { trials }),
        pendingTrials:
          trials > 1 ? new Array<RunState['pendingTrials'][number]>(spec.cases.length) : [],
      });
    }
    suiteStates.push(suite);
    runs.push(...suite.runs);
  }

  const total = runs.reduce((sum, run) => sum + run.size, 0);
  engine.observer?.onStart?.({
    total,
    runs: runs.map((run) => ({
      suite: run.suite.spec.id,
      params: run.params,
      cases: run.size,
    })),
  });

  try {
    engine.sink?.open(runs.map((run) => ({ cases: run.size })));
  } catch (sinkError) {
    engine.observerError ??= { error: sinkError };
  }

  const { signal } = options;
  const onAbort = (): void => engine.calls.interrupt(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const workers: Promise<void>[] = [];
    for (const suite of suiteStates) {
      const units = suite.spec.cases.length * suite.runs.length * suite.trials;
      const count = Math.min(suite.spec.concurrency, units);
      for (let i = 0; i < count; i++) workers.push(suiteWorker(engine, suite));
    }
    await Promise.all(workers);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }

  if (engine.observerError !== null) throw engine.observerError.error;
  return {
    runs: runs.map(toRunResult),
    interrupted: engine.calls.interrupted && engine.completed < total,
  };
}

function checkConcurrency(concurrency: number, label: string): void {
  if (!(Number.isInteger(concurrency) && concurrency >= 1) && concurrency !== Infinity) {
    throw new RangeError(`${label} must be a positive integer, got ${describeValue(concurrency)}`);
  }
}

function createLimit(concurrency: number, label: string): LimitFunction {
  checkConcurrency(concurrency, label);
  return pLimit(concurrency);
}

/** One suite slot: runs the suite's next trial until none is left or the run is interrupted. */
async function suiteWorker(engine: Engine, suite: SuiteState): Promise<void> {
  for (;;) {
    const pause = breather(engine);
    if (pause !== undefined) await pause;
    if (engine.calls.interrupted) return;
    let run = suite.runs[suite.nextRun];
    while (run !== undefined && suite.nextCase >= run.size) {
      suite.nextRun++;
      suite.nextCase = 0;
      run = suite.runs[suite.nextRun];
    }
    if (run === undefined) return;
    const index = suite.nextCase;
    const trial = suite.nextTrial++;
    if (suite.nextTrial >= suite.trials) {
      suite.nextTrial = 0;
      suite.nextCase++;
    }
    // A trial that ran synchronously to its end is not awaited: no promise tick per case.
    const pending =
      engine.global === null
        ? runCase(engine, run, index, trial)
        : engine.global(runCase, engine, run, index, trial);
    if (pending !== undefined) await pending;
  }
}

/**
 * One trial of a case (the case itself with a single trial): function, evaluators, pass
 * condition. Sync user code is never awaited, so a trivial sync suite costs no timers, signals
 * or extra promise ticks per call: the trial runs to its end synchronously and returns
 * undefined, and only a step that returns a promise (the case's read, the function, an
 * evaluator, the pass condition) hands the rest to an async continuation, whose promise is
 * returned. After every await, an interrupt drops the trial: it did not finish, so it is not
 * recorded (nor, then, is its case).
 */
function runCase(
  engine: Engine,
  run: RunState,
  index: number,
  trial: number,
): Promise<void> | undefined {
  if (engine.calls.interrupted) return undefined;
  return callFunction({ engine, run, index, trial, prepared: run.cases[index]! });
}

/** One trial on its way through the steps below: where it runs, and the case it runs. */
interface TrialRun {
  engine: Engine;
  run: RunState;
  index: number;
  trial: number;
  prepared: PreparedCase;
}

/** The function's call, then the judging of what it returned. */
function callFunction(t: TrialRun): Promise<void> | undefined {
  const { now } = t.engine;
  const args = new FnCallArgs(t.prepared.data, t.run.params);
  const started = now();
  let value: unknown;
  try {
    value = t.run.suite.spec.fn(args);
  } catch (thrown) {
    return judge(t, null, describeError(thrown), started, now());
  }
  if (isThenable(value)) return settleFunction(t, value, args, started);
  return judge(t, value, null, started, now());
}

async function settleFunction(
  t: TrialRun,
  value: PromiseLike<unknown>,
  args: FnCallArgs,
  started: number,
): Promise<void> {
  const { calls, now } = t.engine;
  const outcome = await calls.settle(value, args, t.run.suite.spec.timeoutMs);
  if (calls.interrupted) return;
  const ended = now();
  await (outcome.ok
    ? judge(t, outcome.value, null, started, ended)
    : judge(t, null, outcome.error, started, ended));
}

/**
 * The evaluators and the pass condition over what the function returned (when it did not fail),
 * then the trial's record. Synchronous unless an evaluator or the condition answers with a
 * promise.
 */
function judge(
  t: TrialRun,
  output: unknown,
  error: string | null,
  started: number,
  ended: number,
): Promise<void> | undefined {
  const durationMs = roundMs(ended - started);
  if (error !== null) {
    recordTrial(t, null, error, durationMs, [], false);
    return undefined;
  }
  const { engine, run } = t;
  const testCase = t.prepared.data;
  const evaluated = runEvaluators(engine, run, testCase, output, durationMs, ended);
  if (evaluated instanceof Promise) return judgeLater(t, output, durationMs, evaluated);
  const decided = decidePass(engine, run, testCase, output, evaluated);
  if (decided instanceof Promise) return judgeLater(t, output, durationMs, evaluated, decided);
  recordTrial(t, output, null, durationMs, evaluated, decided);
  return undefined;
}

/** {@link judge} once an evaluator (or the pass condition, `deciding`) answered with a promise. */
async function judgeLater(
  t: TrialRun,
  output: unknown,
  durationMs: number,
  evaluated: EvaluationResult[] | Promise<EvaluationResult[]>,
  deciding?: Promise<boolean>,
): Promise<void> {
  const { engine, run } = t;
  const evaluations = await evaluated;
  if (engine.calls.interrupted) return;
  const decided = deciding ?? decidePass(engine, run, t.prepared.data, output, evaluations);
  const passed = decided instanceof Promise ? await decided : decided;
  if (engine.calls.interrupted) return;
  recordTrial(t, output, null, durationMs, evaluations, passed);
}

/** A finished trial: its case's result once every trial is in, summed, observed and sunk. */
function recordTrial(
  t: TrialRun,
  output: unknown,
  error: string | null,
  durationMs: number,
  evaluations: EvaluationResult[],
  passed: boolean,
): void {
  const { engine, run, index, prepared } = t;
  const recordedOutput = error === null && output !== undefined ? output : null;
  let result: CaseResult;
  if (run.suite.trials === 1) {
    result = {
      id: prepared.id,
      contentId: prepared.contentId,
      source: prepared.source,
      data: prepared.data,
      output: recordedOutput,
      error,
      durationMs,
      passed,
      evaluations,
    };
  } else {
    const pending = (run.pendingTrials[index] ??= {
      trials: new Array<TrialResult>(run.suite.trials),
      done: 0,
    });
    pending.trials[t.trial] = { output: recordedOutput, error, durationMs, passed, evaluations };
    if (++pending.done < run.suite.trials) return;
    run.pendingTrials[index] = undefined;
    result = aggregateTrials(prepared, pending.trials);
  }
  if (run.results !== null) run.results[index] = result;
  run.summary.add(result);
  engine.completed++;
  try {
    engine.observer?.onCaseDone?.({ suite: run.suite.spec.id, params: run.params, result });
  } catch (observerError) {
    engine.observerError ??= { error: observerError };
  }
  try {
    engine.sink?.record(run.position, index, result, prepared);
  } catch (sinkError) {
    engine.observerError ??= { error: sinkError };
  }
}

/**
 * Every evaluator of a case at once; a plain array when all of them answered synchronously.
 * `fnEnded` is when the function's call ended: the first evaluator starts there, and each one
 * answering synchronously where the one before it ended.
 */
function runEvaluators(
  engine: Engine,
  run: RunState,
  testCase: Record<string, unknown>,
  output: unknown,
  fnDurationMs: number,
  fnEnded: number,
): EvaluationResult[] | Promise<EvaluationResult[]> {
  const { evaluators } = run.suite.spec;
  const limits = run.suite.evaluatorLimits;
  const results = new Array<EvaluationResult>(evaluators.length);
  let pending: Promise<void>[] | undefined;
  let at = fnEnded;
  for (let i = 0; i < evaluators.length; i++) {
    const evaluator = evaluators[i]!;
    const limit = limits[i];
    // A limited evaluator may wait for its turn: its time starts when it is called.
    const value = limit
      ? limit(evaluate, engine, run, evaluator, testCase, output, fnDurationMs, undefined)
      : evaluate(engine, run, evaluator, testCase, output, fnDurationMs, at);
    if (value instanceof Promise) {
      at = engine.now();
      (pending ??= []).push(
        value.then((evaluation) => {
          results[i] = evaluation;
        }),
      );
    } else {
      results[i] = value;
      at = engine.lastEnd;
    }
  }
  return pending === undefined ? results : Promise.all(pending).then(() => results);
}

/**
 * One evaluator call, timed from its start (not from when it queued for its limiter): `at`, or
 * the clock now when not given. A synchronous answer sets `engine.lastEnd`.
 */
function evaluate(
  engine: Engine,
  run: RunState,
  evaluator: EngineEvaluator,
  testCase: Record<string, unknown>,
  output: unknown,
  fnDurationMs: number,
  at: number | undefined,
): EvaluationResult | Promise<EvaluationResult> {
  const { calls, now } = engine;
  const started = at ?? now();
  // The case is dropped after an interrupt; do not start user code whose result is discarded.
  if (calls.interrupted) {
    engine.lastEnd = started;
    return erroredEvaluation(evaluator, 'interrupted', 0);
  }
  const args = new EvaluatorCallArgs(testCase, output, run.params, fnDurationMs);
  let value: unknown;
  try {
    value = evaluator.evaluateTestCase(args);
  } catch (thrown) {
    const ended = (engine.lastEnd = now());
    return erroredEvaluation(evaluator, describeError(thrown), roundMs(ended - started), thrown);
  }
  if (!isThenable(value)) {
    const ended = (engine.lastEnd = now());
    return toEvaluationResult(evaluator, value, roundMs(ended - started));
  }
  return calls
    .settle(value, args, evaluator.timeoutMs ?? run.suite.spec.timeoutMs)
    .then((outcome) =>
      outcome.ok
        ? toEvaluationResult(evaluator, outcome.value, elapsedMs(now, started))
        : erroredEvaluation(evaluator, outcome.error, elapsedMs(now, started), outcome.thrown),
    );
}

/**
 * The case's pass condition. `all`: no evaluation failed. `any`: some evaluation passed, or
 * none has a pass status at all (nothing was judged, so nothing failed). A function decides
 * itself, within the suite's time limit; if it throws, times out or returns a non-boolean, the
 * case fails and a synthetic `pass` evaluation carries the error.
 */
function decidePass(
  engine: Engine,
  run: RunState,
  testCase: Record<string, unknown>,
  output: unknown,
  evaluations: EvaluationResult[],
): boolean | Promise<boolean> {
  const { pass } = run.suite.spec;
  if (pass === 'all') return evaluations.every((evaluation) => evaluation.passed !== false);
  if (pass === 'any') {
    let judged = false;
    for (const evaluation of evaluations) {
      if (evaluation.passed === true) return true;
      if (evaluation.passed === false) judged = true;
    }
    return !judged;
  }

  const { calls, now } = engine;
  const started = now();
  const fail = (error: string): false => {
    evaluations.push({
      evaluator: PASS_CONDITION_EVALUATOR,
      score: null,
      threshold: null,
      passed: false,
      metadata: null,
      error,
      durationMs: elapsedMs(now, started),
    });
    return false;
  };
  const check = (value: unknown): boolean =>
    typeof value === 'boolean'
      ? value
      : fail(`the pass condition returned ${describeValue(value)}; expected true or false`);
  try {
    const value: unknown = pass({ testCase, output, params: run.params, evaluations });
    if (!isThenable(value)) return check(value);
    return calls
      .settle(value, new CallScope(), run.suite.spec.timeoutMs)
      .then((outcome) => (outcome.ok ? check(outcome.value) : fail(outcome.error)));
  } catch (thrown) {
    return fail(describeError(thrown));
  }
}

function toRunResult(run: RunState): RunResult {
  const { spec } = run.suite;
  // `filter` skips the holes left by cases an interrupt dropped, keeping testset order.
  const cases = run.results?.filter((result): result is CaseResult => result !== undefined) ?? [];
  const summary = run.summary.summary();
  const gate = evaluateRunGate(summary, spec.gate, spec.cases.length);
  return {
    suite: spec.id,
    params: run.params,
    testset: { ...spec.testset, cases: spec.cases.length },
    verdict: gate.verdict,
    gate: { conditions: gate.conditions },
    summary,
    cases,
  };
}
