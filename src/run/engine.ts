import pLimit, { type LimitFunction } from 'p-limit';
import { describeValue } from '../shared/errors.ts';
import { PASS_CONDITION_EVALUATOR } from '../shared/reserved-ids.ts';
import type {
  CaseResult,
  EngineEvaluator,
  EvaluationResult,
  Params,
  PreparedCase,
  RunResult,
  TargetOutput,
  TrialResult,
  Usage,
} from '../types/index.ts';
import {
  CallScope,
  EvaluatorCallArgs,
  FnCallArgs,
  PendingCalls,
  describeError,
  isThenable,
  type Outcome,
} from './call.ts';
import { erroredEvaluation, isUsage, toEvaluationResult } from './evaluation.ts';
import { evaluateRunGate, SummaryAccumulator } from './summary.ts';
import { aggregateTrials } from './trials.ts';
import type {
  EngineListener,
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
 * pause, Ctrl-C, timers and progress output would wait for the whole run.
 */
const YIELD_EVERY_MS = 20;

interface Engine {
  now: () => number;
  calls: PendingCalls;
  /** `globalConcurrency`: cases in flight across every suite. */
  global: LimitFunction | null;
  listener: EngineListener | undefined;
  keepCases: boolean;
  positions: boolean;
  /** Cases run (not replayed) to their end. */
  completed: number;
  /** A listener must not throw; if one does, the run still settles and then rethrows it. */
  listenerError: { error: unknown } | null;
  /** When (performance.now()) the workers next let the event loop in. */
  yieldAt: number;
}

interface SuiteState {
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

interface RunState {
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
interface Unit {
  run: RunState;
  index: number;
  trial: number;
}

/**
 * Runs every suite × grid point and returns one `RunResult` each, in suite then run order.
 *
 * All suites run at once. A case (target call, then its evaluators concurrently, then the pass
 * condition) holds one of its suite's `concurrency` slots, shared by all its runs, and, with
 * `globalConcurrency`, one slot of the global limiter, taken in that order so they cannot
 * deadlock. Each evaluator with `maxConcurrency` has one limiter per suite. The suite slots are
 * a pool of `concurrency` workers pulling cases in testset order, run after run. Failures of
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
    listener: options.listener,
    keepCases: options.keepCases ?? true,
    positions: options.positions ?? false,
    completed: 0,
    listenerError: null,
    yieldAt: performance.now() + YIELD_EVERY_MS,
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
  }

  if (engine.listenerError !== null) throw engine.listenerError.error;
  return {
    runs: runs.map(toRunResult),
    interrupted: engine.calls.interrupted && engine.completed < total,
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
        : createLimit(
            evaluator.maxConcurrency,
            `suite "${spec.id}": evaluator "${evaluator.id}": maxConcurrency`,
          ),
    ),
  };
  const evaluatorIds = spec.evaluators.map((evaluator) => evaluator.id);
  suite.runs = spec.runs.map((run, i) => ({
    suite,
    position: firstPosition + i,
    params: run.params,
    cases: run.cases,
    resumed: run.resumed?.positions,
    results: engine.keepCases ? new Array<CaseResult | undefined>(run.cases.length) : null,
    summary: new SummaryAccumulator(evaluatorIds, { trials }),
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

function createLimit(concurrency: number, label: string): LimitFunction {
  checkConcurrency(concurrency, label);
  return pLimit(concurrency);
}

/** One suite slot: runs the suite's next trial until none is left or the run is interrupted. */
async function suiteWorker(engine: Engine, suite: SuiteState): Promise<void> {
  for (;;) {
    if (engine.calls.interrupted) return;
    const unit = nextUnit(suite);
    if (unit === undefined) return;
    await (engine.global === null
      ? runTrial(engine, unit)
      : engine.global(() => runTrial(engine, unit)));
    if (performance.now() >= engine.yieldAt) {
      await new Promise((resolve) => setImmediate(resolve));
      engine.yieldAt = performance.now() + YIELD_EVERY_MS;
    }
  }
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

/**
 * A call of user code: its value, or why it failed, within `timeoutMs` and any interrupt. A
 * call that answers synchronously gives its outcome at once, so the caller reads the clock
 * right after it, before any other case gets a turn: its duration is its own.
 */
function callUser<T>(
  engine: Engine,
  call: () => T | PromiseLike<T>,
  scope: CallScope,
  timeoutMs: number | null,
): Outcome<T> | Promise<Outcome<T>> {
  let value: T | PromiseLike<T>;
  try {
    value = call();
  } catch (thrown) {
    return { ok: false, error: describeError(thrown), thrown };
  }
  return isThenable(value) ? engine.calls.settle(value, scope, timeoutMs) : { ok: true, value };
}

/**
 * One trial of a case: the target, then the evaluators and the pass condition over what it
 * produced. After every wait, an interrupt drops the trial: it did not finish, so it is not
 * recorded (nor, then, is its case).
 */
async function runTrial(engine: Engine, { run, index, trial }: Unit): Promise<void> {
  if (engine.calls.interrupted) return;
  const { spec } = run.suite;
  const testCase = run.cases[index]!;
  const args = new FnCallArgs(testCase.data, run.params);
  const started = engine.now();
  const called = callUser(engine, () => spec.target.call(args), args, spec.timeoutMs);
  const produced = called instanceof Promise ? await called : called;
  if (engine.calls.interrupted) return;
  const durationMs = roundMs(engine.now() - started);
  const target = produced.ok ? targetOutput(produced.value) : produced;
  if (!target.ok) {
    recordTrial(engine, run, index, trial, {
      output: null,
      error: target.error,
      durationMs,
      passed: false,
      evaluations: [],
    });
    return;
  }
  const { output, usage } = target.value;
  const evaluations = await Promise.all(
    spec.evaluators.map((evaluator, i) => {
      const limit = run.suite.evaluatorLimits[i];
      const evaluateOne = (): Promise<EvaluationResult> =>
        evaluate(engine, run, evaluator, testCase.data, output, durationMs);
      // A limited evaluator may wait for its turn: its time starts when it is called.
      return limit ? limit(evaluateOne) : evaluateOne();
    }),
  );
  if (engine.calls.interrupted) return;
  const passed = await decidePass(engine, run, testCase.data, output, evaluations);
  if (engine.calls.interrupted) return;
  recordTrial(engine, run, index, trial, {
    output: output === undefined ? null : output,
    error: null,
    durationMs,
    passed,
    evaluations,
    ...(usage !== undefined ? { usage } : {}),
  });
}

/** What a target answered, checked: `{ output, usage? }`. */
function targetOutput(value: unknown): Outcome<TargetOutput> {
  if (typeof value !== 'object' || value === null || !('output' in value)) {
    return {
      ok: false,
      error: `the target returned ${describeValue(value)}; expected { output } (a bug in the target)`,
    };
  }
  const { output, usage } = value as TargetOutput;
  return { ok: true, value: isUsage(usage) ? { output, usage } : { output } };
}

/** One evaluator call, timed from its start (not from when it queued for its limiter). */
async function evaluate(
  engine: Engine,
  run: RunState,
  evaluator: EngineEvaluator,
  testCase: Record<string, unknown>,
  output: unknown,
  fnDurationMs: number,
): Promise<EvaluationResult> {
  // The case is dropped after an interrupt; do not start user code whose result is discarded.
  if (engine.calls.interrupted) return erroredEvaluation(evaluator, 'interrupted', 0);
  const started = engine.now();
  const args = new EvaluatorCallArgs(testCase, output, run.params, fnDurationMs);
  const timeoutMs = evaluator.timeoutMs ?? run.suite.spec.timeoutMs;
  const called = callUser(engine, () => evaluator.evaluateTestCase(args), args, timeoutMs);
  const outcome = called instanceof Promise ? await called : called;
  const durationMs = roundMs(engine.now() - started);
  return outcome.ok
    ? toEvaluationResult(evaluator, outcome.value, durationMs)
    : erroredEvaluation(evaluator, outcome.error, durationMs, outcome.thrown);
}

/**
 * The case's pass condition. `all`: no evaluation failed. `any`: some evaluation passed, or
 * none has a pass status at all (nothing was judged, so nothing failed). A function decides
 * itself, within the suite's time limit; if it throws, times out or returns a non-boolean, the
 * case fails and a synthetic `pass` evaluation carries the error.
 */
async function decidePass(
  engine: Engine,
  run: RunState,
  testCase: Record<string, unknown>,
  output: unknown,
  evaluations: EvaluationResult[],
): Promise<boolean> {
  const { pass, timeoutMs } = run.suite.spec;
  if (pass === 'all') return evaluations.every((evaluation) => evaluation.passed !== false);
  if (pass === 'any') {
    const judged = evaluations.filter((evaluation) => evaluation.passed !== null);
    return judged.length === 0 || judged.some((evaluation) => evaluation.passed === true);
  }
  const started = engine.now();
  const called = callUser(
    engine,
    () => pass({ testCase, output, params: run.params, evaluations }),
    new CallScope(),
    timeoutMs,
  );
  const outcome = called instanceof Promise ? await called : called;
  if (outcome.ok && typeof outcome.value === 'boolean') return outcome.value;
  const error = outcome.ok
    ? `the pass condition returned ${describeValue(outcome.value)}; expected true or false`
    : outcome.error;
  evaluations.push({
    evaluator: PASS_CONDITION_EVALUATOR,
    score: null,
    threshold: null,
    passed: false,
    metadata: null,
    error,
    durationMs: roundMs(engine.now() - started),
  });
  return false;
}

/** A finished trial; its case is recorded once every trial is in. */
function recordTrial(
  engine: Engine,
  run: RunState,
  index: number,
  trial: number,
  result: TrialResult,
): void {
  const testCase = run.cases[index]!;
  const trials = run.suite.trials;
  if (trials === 1) {
    const { usage, ...rest } = result;
    record(engine, run, index, caseOf(testCase, rest, usage), false);
    return;
  }
  let pending = run.pendingTrials.get(index);
  if (pending === undefined) {
    pending = { trials: new Array<TrialResult>(trials), done: 0 };
    run.pendingTrials.set(index, pending);
  }
  pending.trials[trial] = result;
  if (++pending.done < trials) return;
  run.pendingTrials.delete(index);
  record(engine, run, index, aggregateTrials(testCase, pending.trials), false);
}

function caseOf(
  testCase: PreparedCase,
  trial: Omit<TrialResult, 'usage'>,
  usage: Usage | undefined,
): CaseResult {
  return {
    id: testCase.id,
    contentId: testCase.contentId,
    source: testCase.source,
    data: testCase.data,
    ...trial,
    ...(usage !== undefined ? { usage } : {}),
  };
}

/** A case's result: kept, summed and told to the listener. */
function record(
  engine: Engine,
  run: RunState,
  index: number,
  result: CaseResult,
  replayed: boolean,
): void {
  const testCase = run.cases[index]!;
  if (engine.positions) result.index = testCase.index;
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
    }),
  );
}

/** Calls the listener; its first error is kept, to be thrown once the run has settled. */
function tell(engine: Engine, call: () => void): void {
  try {
    call();
  } catch (error) {
    engine.listenerError ??= { error };
  }
}

function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function toRunResult(run: RunState): RunResult {
  const { spec } = run.suite;
  // `filter` skips the holes left by cases an interrupt dropped, keeping testset order.
  const cases = run.results?.filter((result): result is CaseResult => result !== undefined) ?? [];
  const summary = run.summary.summary();
  const gate = evaluateRunGate(summary, spec.gate, run.cases.length);
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
