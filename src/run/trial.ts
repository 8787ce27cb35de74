/**
 * One trial of a case: the target, then its evaluators at once, then the pass condition, and
 * the trial's record (the case's, once every trial is in).
 */
import { inTrial } from '../judge/trial-scope.ts';
import { describeValue } from '../shared/errors.ts';
import { PASS_CONDITION_EVALUATOR } from '../shared/reserved-ids.ts';
import { hasTagIn } from '../testsets/identity.ts';
import type {
  CaseResult,
  EngineEvaluator,
  EvaluationResult,
  PassCondition,
  PreparedCase,
  TargetOutput,
  TrialResult,
  Usage,
} from '../types/index.ts';
import {
  CallScope,
  EvaluatorCallArgs,
  FnCallArgs,
  roundMs,
  type CallOutcome,
  type Outcome,
} from './call.ts';
import { erroredEvaluation, isUsage, toEvaluationResult } from './evaluation.ts';
import { describeError } from '../shared/describe-error.ts';
import { baselineRecorded } from '../shared/baseline-recorded.ts';
import { record, type Engine, type RunState, type Unit } from './state.ts';
import { aggregateTrials, caseInputId, caseTags } from './trials.ts';

/**
 * One trial of a case: the target, then the evaluators and the pass condition over what it
 * produced. After every wait, an interrupt drops the trial: it did not finish, so it is not
 * recorded (nor, then, is its case).
 */
export async function runTrial(engine: Engine, unit: Unit): Promise<void> {
  if (engine.calls.interrupted) return;
  const { run, index, trial } = unit;
  const { spec } = run.suite;
  const testCase = run.cases[index]!;
  const waiting = spec.target.ready?.();
  if (waiting !== undefined) {
    // A thread that never finishes loading must not hold an interrupted run.
    await Promise.race([waiting, engine.calls.interruption]);
    if (engine.calls.interrupted) return;
  }
  const args = new FnCallArgs(testCase.data, run.params, trial + 1);
  const called = engine.calls.call(
    unit,
    inTrialOf(unit, () => spec.target.call(args)),
    args,
    spec.timeoutMs,
  );
  const produced = called instanceof Promise ? await called : called;
  if (engine.calls.interrupted) return;
  const target = produced.ok ? guarded(() => targetOutput(produced.value)) : produced;
  // A target that knows how long its output took (a cached model answer) is timed by that.
  const durationMs = (target.ok ? target.value.durationMs : undefined) ?? produced.durationMs;
  if (!target.ok) {
    // A target timed out still used what it had sent: the usage it returned as it stopped.
    const late = produced.ok || produced.late === undefined ? undefined : produced.late;
    const spent = late === undefined ? undefined : guarded(() => targetOutput(late));
    const usage = spent?.ok === true ? spent.value.usage : undefined;
    recordTrial(engine, run, index, trial, {
      output: null,
      error: target.error,
      durationMs,
      passed: false,
      evaluations: [],
      ...(usage !== undefined ? { usage } : {}),
    });
    return;
  }
  const { output, usage, error, warnings, sent } = target.value;
  // What a function target says about its output is usually nothing: no object made for it.
  const noted =
    warnings === undefined && sent === undefined
      ? undefined
      : { ...(warnings !== undefined && { warnings }), ...(sent !== undefined && { sent }) };
  const untimed = target.value.durationMs === undefined && servedFromCache(usage);
  if (error !== undefined) {
    recordTrial(engine, run, index, trial, {
      output: output === undefined ? null : output,
      error,
      durationMs,
      passed: false,
      evaluations: [],
      ...(usage !== undefined ? { usage } : {}),
      ...noted,
    });
    return;
  }
  // An evaluator that answers at once gives its result as is: only pending ones are waited for
  // (a promise per evaluator and case is most of what a trivial evaluator costs the run).
  let pending = false;
  const started = spec.evaluators.flatMap((evaluator, i) => {
    // `when:` an evaluator that does not apply to this row gives it no evaluation at all.
    if (evaluator.when !== undefined && !hasTagIn(evaluator.when.tags)(testCase.meta)) return [];
    const limit = run.suite.evaluatorLimits[i];
    const evaluateOne = (): MaybePromise<Evaluated> =>
      evaluate(engine, unit, evaluator, testCase.data, output, durationMs, untimed);
    // A limited evaluator may wait for its turn: its time starts when it is called.
    const result = limit ? limit(evaluateOne) : evaluateOne();
    if (result instanceof Promise) pending = true;
    return [result];
  });
  const evaluated = pending
    ? await Promise.all(started.map((result) => Promise.resolve(result)))
    : (started as Evaluated[]);
  // An evaluator that returned nothing skipped this case, as `when:` does: no entry at all. One
  // that recorded the case's first baseline is named, so the gate can tell the two apart.
  const evaluations: EvaluationResult[] = [];
  let recorded: string[] | undefined;
  for (const result of evaluated) {
    if (result === null) continue;
    if ('recordedBaseline' in result) (recorded ??= []).push(result.recordedBaseline);
    else evaluations.push(result);
  }
  if (engine.calls.interrupted) return;
  const decided = decidePass(engine, unit, testCase.data, output, evaluations);
  const passed = typeof decided === 'boolean' ? decided : await decided;
  if (engine.calls.interrupted) return;
  recordTrial(engine, run, index, trial, {
    output: output === undefined ? null : output,
    error: null,
    durationMs,
    passed,
    evaluations,
    ...(recorded !== undefined ? { recordedBaseline: recorded } : {}),
    ...(usage !== undefined ? { usage } : {}),
    ...noted,
  });
}

/**
 * What an evaluator call gave: its evaluation, `null` when it skipped the case, or the id of an
 * evaluator that recorded the case's first baseline instead of judging it (an automatic battle,
 * of evals.yaml or the SDK, see shared/baseline-recorded.ts).
 */
type Evaluated = EvaluationResult | { recordedBaseline: string } | null;

/** What a target answered, checked: `{ output, usage? }`. */
function targetOutput(value: unknown): Outcome<TargetOutput> {
  if (typeof value !== 'object' || value === null || !('output' in value)) {
    return {
      ok: false,
      error: `the target returned ${describeValue(value)}; expected { output } (a bug in the target)`,
    };
  }
  const { output, usage, error, durationMs, warnings, sent } = value as TargetOutput;
  return {
    ok: true,
    value: {
      output,
      ...(isUsage(usage) ? { usage } : {}),
      ...(typeof error === 'string' ? { error } : {}),
      ...(isDuration(durationMs) ? { durationMs: roundMs(durationMs) } : {}),
      ...(isWarnings(warnings) ? { warnings } : {}),
      ...(typeof sent === 'string' ? { sent } : {}),
    },
  };
}

/** Warnings a target noted: a list of text, none empty (an empty list is no warning). */
function isWarnings(value: unknown): value is string[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((warning) => typeof warning === 'string' && warning !== '')
  );
}

type MaybePromise<T> = T | Promise<T>;

/**
 * One evaluator call, timed from its start (not from when it queued for its limiter): its
 * evaluation, or a promise of it while the evaluator's answer is pending.
 */
function evaluate(
  engine: Engine,
  unit: Unit,
  evaluator: EngineEvaluator,
  testCase: Record<string, unknown>,
  output: unknown,
  fnDurationMs: number,
  untimed: boolean,
): MaybePromise<Evaluated> {
  // The case is dropped after an interrupt; do not start user code whose result is discarded.
  if (engine.calls.interrupted) return erroredEvaluation(evaluator, 'interrupted', 0);
  const { run } = unit;
  const args = new EvaluatorCallArgs(testCase, output, run.params, fnDurationMs, unit.trial + 1);
  if (untimed) args.untimed = true;
  const timeoutMs = evaluator.timeoutMs ?? run.suite.spec.timeoutMs;
  const called = engine.calls.call(
    unit,
    inTrialOf(unit, () => evaluator.evaluateTestCase(args)),
    args,
    timeoutMs,
  );
  return called instanceof Promise
    ? called.then((outcome) => evaluationOf(evaluator, outcome, args))
    : evaluationOf(evaluator, called, args);
}

/**
 * A target's own `durationMs` is used only when it is a time: finite and not negative, also once
 * rounded (a huge one rounds to Infinity, which the artifact would write as null).
 */
function isDuration(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && Number.isFinite(roundMs(value));
}

/**
 * Whether the target's output came from the response cache alone (a model target re-run with
 * nothing changed): it made no request, so the call's time is the cache's, not the model's.
 */
function servedFromCache(usage: Usage | undefined): boolean {
  return usage !== undefined && usage.calls === 0 && usage.cacheHits > 0;
}

/**
 * `fn`, made to run in the trial scope of `unit` when its suite runs several trials, so the model
 * calls it makes (a model target's, a judge's) are cached as that trial's: each trial its own
 * sample. Without trials `fn` itself: nothing is entered (and the calls keep the keys they always
 * had), and no wrapper is made for each call.
 */
function inTrialOf<T>(unit: Unit, fn: () => T): () => T {
  return unit.run.suite.trials > 1 ? () => inTrial(unit.trial + 1, fn) : fn;
}

/** The evaluation an evaluator call's outcome gives (see `Evaluated`). */
function evaluationOf(
  evaluator: EngineEvaluator,
  outcome: CallOutcome<unknown>,
  args: EvaluatorCallArgs,
): Evaluated {
  if (!outcome.ok) {
    return erroredEvaluation(evaluator, outcome.error, outcome.durationMs, outcome.thrown);
  }
  // `undefined` / `null`: the evaluator skips this case (the Autoblocks SDK's semantics).
  if (outcome.value === undefined || outcome.value === null) {
    return baselineRecorded(args) ? { recordedBaseline: evaluator.id } : null;
  }
  const checked = guarded(() => ({
    ok: true as const,
    value: toEvaluationResult(evaluator, outcome.value, outcome.durationMs),
  }));
  return checked.ok
    ? checked.value
    : erroredEvaluation(evaluator, checked.error, outcome.durationMs);
}

/**
 * `check` of what user code returned, which reads its members: a getter there that throws is
 * the case's error (saying so), not the run's end.
 */
function guarded<T>(check: () => Outcome<T>): Outcome<T> {
  try {
    return check();
  } catch (error) {
    return { ok: false, error: `reading what it returned threw: ${describeError(error)}` };
  }
}

/**
 * The case's pass condition. `all`: no evaluation failed. `any`: some evaluation passed, or
 * none has a pass status at all (nothing was judged, so nothing failed). A function decides
 * itself, within the suite's time limit; if it throws, times out or returns a non-boolean, the
 * case fails and a synthetic `pass` evaluation carries the error.
 */
function decidePass(
  engine: Engine,
  unit: Unit,
  testCase: Record<string, unknown>,
  output: unknown,
  evaluations: EvaluationResult[],
): MaybePromise<boolean> {
  const { pass } = unit.run.suite.spec;
  if (pass === 'all') return evaluations.every((evaluation) => evaluation.passed !== false);
  if (pass === 'any') {
    const judged = evaluations.filter((evaluation) => evaluation.passed !== null);
    return judged.length === 0 || judged.some((evaluation) => evaluation.passed === true);
  }
  return passByFunction(engine, unit, pass, { testCase, output, evaluations });
}

/** A pass condition given as a function, called within the suite's time limit. */
async function passByFunction(
  engine: Engine,
  unit: Unit,
  pass: Exclude<PassCondition, 'all' | 'any'>,
  o: { testCase: Record<string, unknown>; output: unknown; evaluations: EvaluationResult[] },
): Promise<boolean> {
  const { testCase, output, evaluations } = o;
  const { run } = unit;
  const { timeoutMs } = run.suite.spec;
  const called = engine.calls.call(
    unit,
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
    durationMs: outcome.durationMs,
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

/**
 * Records case `index` of `run` as errored with `reason`, the run being abandoned while the case
 * ran (the process is exiting): every trial of it not yet finished gets that error.
 */
export function abandonCase(engine: Engine, run: RunState, index: number, reason: string): void {
  const finished = run.pendingTrials.get(index)?.trials;
  for (let trial = 0; trial < run.suite.trials; trial++) {
    if (finished?.[trial] !== undefined) continue;
    recordTrial(engine, run, index, trial, {
      output: null,
      error: reason,
      durationMs: 0,
      passed: false,
      evaluations: [],
    });
  }
}

/**
 * One literal, like the case of `aggregateTrials`, rather than a spread of a shared helper's
 * object: that helper (tried) made a 10,000-case run peak at 115 MB instead of 86 MB, V8 growing
 * its young generation to 32 MB and promoting twice as much.
 */
function caseOf(
  testCase: PreparedCase,
  trial: Omit<TrialResult, 'usage'>,
  usage: Usage | undefined,
): CaseResult {
  return {
    id: testCase.id,
    contentId: testCase.contentId,
    ...caseInputId(testCase),
    source: testCase.source,
    data: testCase.data,
    ...caseTags(testCase),
    ...trial,
    ...(usage !== undefined ? { usage } : {}),
  };
}
