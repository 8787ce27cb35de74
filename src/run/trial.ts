/**
 * One trial of a case: the target, then its evaluators at once, then the pass condition, and
 * the trial's record (the case's, once every trial is in).
 */
import { describeValue } from '../shared/errors.ts';
import { PASS_CONDITION_EVALUATOR } from '../shared/reserved-ids.ts';
import type {
  CaseResult,
  EngineEvaluator,
  EvaluationResult,
  PreparedCase,
  TargetOutput,
  TrialResult,
  Usage,
} from '../types/index.ts';
import {
  CallScope,
  EvaluatorCallArgs,
  FnCallArgs,
  describeError,
  isThenable,
  type Outcome,
} from './call.ts';
import { erroredEvaluation, isUsage, toEvaluationResult } from './evaluation.ts';
import { record, roundMs, type Engine, type RunState, type Unit } from './state.ts';
import { aggregateTrials } from './trials.ts';

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
export async function runTrial(engine: Engine, { run, index, trial }: Unit): Promise<void> {
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
