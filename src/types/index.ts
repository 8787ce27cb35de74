/**
 * The domain types shared by every layer: what a user's code receives and returns, what the
 * engine consumes, and the shape of the results artifact (`schemas/results.schema.json`).
 *
 * This file holds types only, so any layer may import it without pulling in behaviour.
 */
import type { TestCaseSource, TestsetInfo } from './testset.ts';
export type { TestCaseSource, TestsetInfo, RowMeta, TestsetRow, PreparedCase } from './testset.ts';
import type { Comparison, RecoveredBaseline } from './comparison.ts';
import type { RunSummary, Usage } from './summary.ts';
import type { AgreementSpec } from './summary.ts';
import type { ConfigDataParts, ConfigHashParts } from './config-hash.ts';
import type { GateSpec, Threshold } from './gate.ts';
import type { Params } from './target.ts';
export type { FnArgs, Params, Target, TargetOutput, TestFn } from './target.ts';
export type { GateSpec, Threshold } from './gate.ts';
export type { ConfigDataParts, ConfigHashParts } from './config-hash.ts';
export type {
  AgreementSpec,
  AgreementSummary,
  EvaluatorSummary,
  Interval,
  RunSummary,
  Usage,
} from './summary.ts';

/** What an evaluator returns for one case: a score in [0, 1], optionally a threshold and context. */
export interface Evaluation {
  score: number;
  threshold?: Threshold;
  /**
   * Explains the score; kept in the artifact. Any object: `any` values so that an interface
   * without an index signature is accepted too (the SDK types it `object`).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  metadata?: Record<string, any>;
  /** Model calls the evaluator made for this case (judge built-ins fill it; custom ones may). */
  usage?: Usage;
  /**
   * The graded rubric behind the score (the Autoblocks SDK's `Evaluation.assertions`). Kept in
   * the artifact as `metadata.assertions`, so every report that shows metadata shows it.
   */
  assertions?: Assertion[];
}

/** One graded rule of a rubric. `required: false` rules are reported but do not decide a pass. */
export interface Assertion {
  criterion: string;
  passed: boolean;
  required: boolean;
  /** Free-form context of this rule; `any` values, as `Evaluation.metadata` (an interface fits). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  metadata?: Record<string, any>;
}

/** The argument handed to an evaluator. `testCase` and `output` match the Autoblocks SDK. */
export interface EvaluatorArgs<TCase = Record<string, unknown>, TOutput = unknown> {
  testCase: TCase;
  output: TOutput;
  params: Params;
  /** Wall time of the function call that produced `output`, in milliseconds. */
  durationMs: number;
  /**
   * True when `durationMs` does not time what produced `output`: a `model` target served it from
   * a response cache entry that recorded no time (one an earlier evalgate wrote), so no call was
   * timed. An entry that recorded its call's time gives that time as `durationMs` instead.
   */
  untimed?: boolean;
  /** Aborted when the evaluator times out or the run is interrupted. Read it from the argument (see FnArgs). */
  signal: AbortSignal;
  /** The trial whose output this is, from 1 (see `FnArgs.trial`). */
  trial?: number;
}

/**
 * What user evaluators may return: an evaluation, or `undefined` / `null` to skip the case (it
 * then gets no evaluation from that evaluator, which is not a failure — the SDK's semantics).
 */
export type MaybeEvaluation = Evaluation | null | undefined;

/**
 * A plain-function evaluator, the alternative to a `BaseTestEvaluator` subclass: `(args,
 * options)`, where `options` is the evaluator's `with:` in evals.yaml as written (`{}` without
 * one). Type them with the third parameter (`EvaluatorFn<Case, Output, Options>`), or annotate
 * the parameter with an object type (`options: { max: number }`; an interface, lacking an index
 * signature, needs the third parameter). A function that ignores them may leave them out.
 */
export type EvaluatorFn<
  TCase = Record<string, unknown>,
  TOutput = unknown,
  TOptions = Record<string, unknown>,
> = {
  // Written as a method so its parameters are checked bivariantly: `(args, options: { max:
  // number }) => …` is then accepted without the third type argument. Nothing checks `with:`
  // against a type, so such an annotation is the author's claim, as the type argument would be.
  evaluate(
    args: EvaluatorArgs<TCase, TOutput>,
    options: TOptions,
  ): Evaluation | Promise<Evaluation>;
}['evaluate'];

/**
 * What the engine runs as an evaluator. `BaseTestEvaluator` subclasses satisfy it as they are;
 * YAML built-ins and plain functions are adapted into it.
 */
export interface EngineEvaluator<TCase = Record<string, unknown>, TOutput = unknown> {
  id: string;
  /** Max concurrent `evaluateTestCase` calls of this evaluator, across every grid point. */
  maxConcurrency?: number;
  /**
   * The object `maxConcurrency` belongs to (the user's evaluator instance): evaluators of one
   * owner share one limit in every suite and engine, so two `runTestSuite` calls given the same
   * instance hold it to its limit together. Without it, the limit is the suite's own.
   */
  limitOwner?: object;
  /** When set, replaces the threshold the evaluation itself carries (a config `threshold:`). */
  threshold?: Threshold;
  /** Per-call time limit; when absent the suite's timeout applies. */
  timeoutMs?: number;
  /** Applies only to rows with one of these tags (`when:`); the others get no evaluation from it. */
  when?: { tags: readonly string[] };
  /** Compare its verdicts with the human labels in a testset column (`agreement:`). */
  agreement?: AgreementSpec;
  /** What computes its score as the config names it (`is-equals`, `not ./e.ts#E`): see RunPlan. */
  scorer?: string;
  evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Evaluation | Promise<Evaluation>;
}

/**
 * An evaluator as user code writes it (`runTestSuite`, `BaseTestEvaluator`): like
 * `EngineEvaluator`, but it may return `undefined` / `null` to skip a case. The engine accepts
 * both at run time; built-ins always return an evaluation.
 */
export interface TestEvaluator<TCase = Record<string, unknown>, TOutput = unknown> {
  id: string;
  /** Max concurrent `evaluateTestCase` calls of this evaluator, across every grid point. */
  maxConcurrency?: number;
  evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): MaybeEvaluation | Promise<MaybeEvaluation>;
}

/**
 * An evaluator given to `runTestSuite` as a plain object literal: a `TestEvaluator` that may also
 * set `threshold`, which replaces the one its evaluations return (as `threshold:` does in
 * evals.yaml), and `timeoutMs`, its per-call time limit. Read from plain objects only: on a
 * class instance (`BaseTestEvaluator`), fields of those names are the class's own state, and
 * the threshold is what `evaluateTestCase` returns.
 */
export interface TestEvaluatorObject<
  TCase = Record<string, unknown>,
  TOutput = unknown,
> extends TestEvaluator<TCase, TOutput> {
  threshold?: Threshold;
  /** Per call, in milliseconds above 0 (default: the suite's `timeoutMs`). */
  timeoutMs?: number;
}

/** How a case's pass/fail is decided from its evaluations. */
export type PassCondition<TCase = Record<string, unknown>, TOutput = unknown> =
  'all' | 'any' | ((args: PassConditionArgs<TCase, TOutput>) => boolean | Promise<boolean>);

export interface PassConditionArgs<TCase = Record<string, unknown>, TOutput = unknown> {
  testCase: TCase;
  output: TOutput;
  params: Params;
  evaluations: EvaluationResult[];
}

// ---------------------------------------------------------------------------------------------
// Results artifact, schemaVersion 1
// ---------------------------------------------------------------------------------------------

export type Verdict = 'pass' | 'fail';

export interface EvaluationResult {
  evaluator: string;
  /** `null` when the evaluator errored. */
  score: number | null;
  threshold: Threshold | null;
  /** `null` when there is no threshold: reported, never counted as pass or fail. */
  passed: boolean | null;
  metadata: Record<string, unknown> | null;
  error: string | null;
  durationMs: number;
  /** Model calls of this evaluation; absent when it made none. */
  usage?: Usage;
}

/** One trial of a case, when its suite runs several (`trials: N`). */
export interface TrialResult {
  output: unknown;
  error: string | null;
  durationMs: number;
  passed: boolean;
  evaluations: EvaluationResult[];
  /** See `CaseResult.recordedBaseline`. */
  recordedBaseline?: string[];
  /** Model calls the target made for this trial; absent when it made none. */
  usage?: Usage;
  /** What the target noted about this trial's output (see `TargetOutput.warnings`); absent when none. */
  warnings?: string[];
  /** What the target sent for this trial (see `TargetOutput.sent`); absent when it says nothing. */
  sent?: string;
}

export interface CaseResult {
  id: string;
  contentId: string;
  /**
   * Only in a suite scoring outputs recorded in the testset: the contentId of the row without its
   * output field, which a comparison pairs on (see `PreparedCase.inputId`).
   */
  inputId?: string;
  source: TestCaseSource | null;
  data: unknown;
  /** The row's tags (`__tags__`), in the order written; absent when it has none. */
  tags?: string[];
  /** `null` when the function errored (or returned nothing). */
  output: unknown;
  /** The function's error message (thrown, rejected or timed out), else `null`. */
  error: string | null;
  durationMs: number;
  /** `false` for errored cases. With trials: more than half of the trials passed. */
  passed: boolean;
  /**
   * Per evaluator. With trials, one entry per evaluator: its score the mean over the trials that
   * scored, `passed` whether more than half of those that judged it passed; trials keep their own.
   */
  evaluations: EvaluationResult[];
  /**
   * The evaluators that recorded this case's first baseline instead of judging it, and so gave
   * it no evaluation (the SDK's `BaseAutomaticBattle`); with trials, those that did in any
   * trial. Absent when none did.
   */
  recordedBaseline?: string[];
  /** Model calls the target made for this case (summed over trials); absent when it made none. */
  usage?: Usage;
  /**
   * What the target noted about `output` that does not make the case fail (an integer past 2^53
   * in a JSON output, read as another number); with trials, those of the trial `output` is from.
   * Absent when none.
   */
  warnings?: string[];
  /**
   * What the target sent (`TargetOutput.sent`: a model target's rendered messages, an http
   * target's request, a command's arguments), scrubbed; with trials, that of the trial `output`
   * is from. Absent for a target that says nothing of it (a function).
   */
  sent?: string;
  /** Every trial, in order, when the suite ran more than one; absent for a single trial. */
  trials?: TrialResult[];
  /** Share of trials that passed; absent for a single trial. */
  trialPassRate?: number;
  /** Passed in some trials and failed in others. Absent for a single trial. */
  flaky?: boolean;
  /**
   * 0-based position of the case's row in its testset, before any filter. Only in shard
   * artifacts (`evals run --shard`), where `evals merge` needs it to restore testset order.
   */
  index?: number;
}

/** One condition of a gate, with what it needed and what the run measured. */
export interface GateCondition {
  /** e.g. `all cases pass`, `minPassRate`, `evaluators.tone.mean` */
  name: string;
  expected: string;
  actual: string;
  passed: boolean;
}

export interface RunResult {
  suite: string;
  params: Params;
  testset: TestsetInfo;
  verdict: Verdict;
  gate: { conditions: GateCondition[] };
  summary: RunSummary;
  /**
   * What the summary and gate were computed from, so `evals merge` and `evals run --resume`
   * can recompute them over combined cases without the config. Absent in older artifacts.
   */
  plan?: RunPlan;
  cases: CaseResult[];
}

/** A run's evaluator ids (summary order), trials per case and gate rules. */
export interface RunPlan {
  evaluators: string[];
  trials: number;
  gate: GateSpec;
  /** Evaluator id → where its verdicts are checked against people; absent when none is. */
  agreement?: Record<string, AgreementSpec>;
  /** Evaluator id → its scorer (`use:`, with `not `): a changed one is not compared as the same. */
  scorers?: Record<string, string>;
  /**
   * `function` when a `pass:` function decides each case: then never failed for `judged`.
   * `evaluators` (all or any) only where the config the artifact records would be read as naming
   * a `pass:` function; absent otherwise (see artifact/recorded-pass.ts).
   */
  pass?: 'function' | 'evaluators';
}

export interface ResultsArtifact {
  schemaVersion: 1;
  tool: { name: 'evalgate'; version: string };
  config: string;
  configHash: string;
  /**
   * What `configHash` is the hash of, when it covers files beside the config: the hash of the
   * config's own data and each covered file's digest, so a refusal can name what changed.
   */
  configHashParts?: ConfigHashParts;
  /** The config's data hash broken down, to name what changed in the config itself. */
  configDataParts?: ConfigDataParts;
  git: { sha: string | null; ref: string | null } | null;
  startedAt: string;
  durationMs: number;
  interrupted: boolean;
  verdict: Verdict;
  /** Present when this artifact holds one shard of a run (`evals run --shard INDEX/COUNT`). */
  shard?: { index: number; count: number };
  /**
   * Present when `evals merge --allow-partial` merged only some of a run's shards: how many
   * shards the run was split into, and which were merged (every run lacks the others' cases).
   */
  partialMerge?: { count: number; merged: number[] };
  /** True when a testset ran that did not match its `revision:` pin (`evals run --ignore-pin`). */
  pinIgnored?: true;
  runs: RunResult[];
  /** The comparison against a baseline, when the run had one. */
  comparison?: Comparison;
  /** On a partial recovered from a journal (no comparison): the baseline its run compared with. */
  baseline?: RecoveredBaseline;
  /**
   * The run was given a baseline and not compared with it (it shares no case with the run, or
   * the comparison failed): which, and why. Every report of the results says so.
   */
  notCompared?: { baseline: string; why: string };
  /** The config's top-level `removedSuites`, when it sets it: suites of a baseline gone on purpose. */
  removedSuites?: string[];
  /** Suites of the baseline gone, not in `removedSuites`, under its `block`: each fails the run. */
  missingSuites?: { suite: string; text: string }[];
  /** Those that warn instead (its `warn`, or a `--suite` run of no new suite): docs/artifact.md. */
  goneSuiteWarnings?: { suite: string; text: string }[];
  /** Model calls over every run; absent when no evaluator made any. */
  usage?: Usage;
}
