import { AsyncLocalStorage } from 'node:async_hooks';
import type { Evaluation, EvaluatorArgs, Threshold } from '../../types/index.ts';
import { EvaluationError, describeValue } from '../../shared/errors.ts';
import { BaseTestEvaluator } from '../base.ts';
import {
  memberForm,
  missingMemberProblem,
  positionalMapperProblem,
  pythonMemberProblem,
  type SdkMembers,
} from '../call-form.ts';
import type { DirectScoring } from '../define.ts';
import type { OptionValues } from '../options.ts';
import type { BuiltinDefinition, BuiltinFiles, JudgeContext } from '../types.ts';
import { baseUrlSource } from '../../judge/client.ts';
import type { JudgeClient } from '../../judge/types.ts';
import { baseUrlProblem, envUrlProblem } from '../../shared/url-problems.ts';

/** The Autoblocks SDK's default judge model, used when neither the class nor the run sets one. */
export const SDK_DEFAULT_MODEL = 'gpt-4o';

/**
 * What a run hands an SDK class for its cases: model access for the judges and, for
 * `BaseAutomaticBattle`, where baselines are kept. `runTestSuite` supplies both for its own calls
 * (see `sdkInContext`); a class used elsewhere can be given them through `useContext`.
 */
export interface SdkEvaluatorContext {
  judge?: JudgeContext;
  files?: BuiltinFiles;
  /**
   * The id results record the class under, when it is not the class's own `id` (evals.yaml
   * names a module evaluator by its `id:`, else its export name); overrides are looked up by it.
   */
  evaluatorId?: string;
  /**
   * Removes the run's secrets from what the built-in quotes before it cuts it (see
   * `BuiltinContext.scrub`); absent: none.
   */
  scrub?: (text: string) => string;
}

type Scorer = (values: OptionValues, args: EvaluatorArgs) => Evaluation | Promise<Evaluation>;

/**
 * The context of the use an SDK class's call is part of: one `runTestSuite` call, or one
 * evaluator entry of evals.yaml. Carried by the call rather than kept on the instance, because
 * one instance may serve several uses, one after the other or at the same time (an exported
 * judge two suites name, one instance given to two `runTestSuite` calls awaited together): each
 * call must judge with its own use's settings and keep baselines under its own suite.
 */
const currentUse = new AsyncLocalStorage<SdkEvaluatorContext>();

/** What an instance prepared for one use: the built-in's scorer, a judge's overrides. */
type Prepared = Map<string, unknown>;

/** A built-in, as an SDK class drives it: its default threshold and its direct scorer. */
export type DrivenBuiltin = Pick<BuiltinDefinition, 'defaultThreshold' | 'calls'> & DirectScoring;

export type { SdkMembers } from '../call-form.ts';

/**
 * The common part of the out-of-box SDK classes: each maps a case to a built-in's option values
 * with the mapper methods the user implements, and scores them with that built-in's own code
 * (one implementation for `use:` in evals.yaml and for the class), prepared once per instance.
 *
 * The user subclasses these and adds members of their own, so every member that is not part of
 * the documented surface (`useContext`, the mappers, `model`, `threshold`, ...) is either a
 * `#private` one or, where the run, another copy of evalgate or a subclass here must reach it,
 * named with an `sdk` prefix: a member the user names `builtin`, `preload` or `judgeModel` with
 * a meaning of their own would replace one of the class's and break every case.
 */
export abstract class BuiltinBackedEvaluator<TCase, TOutput> extends BaseTestEvaluator<
  TCase,
  TOutput
> {
  /** The instance's own context, given in code through `useContext`. */
  #own: SdkEvaluatorContext = {};
  /** What was prepared per use, keyed by the use's context (`#own` outside any use). */
  #prepared = new WeakMap<SdkEvaluatorContext, Prepared>();

  /**
   * Gives the instance a context of its own, for calls outside a run (a class used by hand) and
   * over any run's: what it sets wins over what `runTestSuite` or evals.yaml hand its calls, so
   * a judge given in code is not replaced. A context set before keeps precedence unless
   * `replace` is set.
   */
  useContext(context: SdkEvaluatorContext, options: { replace?: boolean } = {}): void {
    this.#own = options.replace === true ? { ...context } : { ...context, ...definedOf(this.#own) };
    this.#prepared = new WeakMap();
  }

  /**
   * Runs `call` (this instance's `evaluateTestCase` or `sdkPreload`) as part of the use whose
   * context is `context`: what the class prepares from it (the built-in's scorer, an automatic
   * battle's baselines store, the overrides a judge shows) is kept for that context object, so
   * a use hands the same object to every call. Other uses of the instance, before, after or at
   * the same time, keep theirs. A method of the instance, so that a class from another copy of
   * evalgate (a module's own install) runs in its own copy's context. Was `inContext`, a name a
   * RAG suite's helper may take (see `sdkClassUse` for classes of older copies).
   */
  sdkInContext<T>(context: SdkEvaluatorContext, call: () => T): T {
    return currentUse.run(context, call);
  }

  /**
   * Reads now the files the class would read on its first case (`BaseLLMJudge`'s overrides),
   * so that a malformed one is a load-time error of the config rather than every case's.
   * Called by `evals run` and `runTestSuite` through `sdkInContext`; throws what the first case
   * would have thrown. A class that calls a model checks here the base URL of its client (see
   * `judgeClientProblem`): one fetch cannot use would fail every call. The built-in's scorer is
   * prepared here too, for this use, as evals.yaml creates a built-in at load. Was `preload`, a
   * name a suite's own loading helper may take. Subclasses here extend it (with `super`).
   */
  sdkPreload(): void {
    const className = this.constructor.name || 'the class';
    // A member ported under the Python SDK's name, or with its parameters, or left out (as
    // JavaScript allows), would fail every case.
    const members = this.sdkMembers();
    const ported =
      pythonMemberProblem(this, className, members) ??
      missingMemberProblem(this, className, members) ??
      positionalMapperProblem(this, className, members);
    if (ported !== null) throw new Error(ported);
    if (this.sdkBuiltin().calls !== undefined) {
      const client = this.sdkContext().judge?.client;
      const problem = client !== undefined ? judgeClientProblem(client) : null;
      if (problem !== null) throw new Error(problem);
    }
    // What the first case would prepare (an automatic battle reads its baselines file).
    this.#scorerFor();
  }

  /**
   * What a run warns of in this class's settings, asked after `sdkPreload`: a setting accepted
   * for now that a later release will refuse (a battle without `criteria`). Subclasses here
   * extend it (with `super`).
   */
  sdkWarnings(): string[] {
    return [];
  }

  /**
   * The context of the current call: its use's, under what `useContext` set. Not `context`: a
   * subclass's own helper of that name (a RAG suite's `context(testCase)`) would replace it.
   */
  protected sdkContext(): SdkEvaluatorContext {
    const use = currentUse.getStore();
    return use === undefined ? this.#own : { ...use, ...definedOf(this.#own) };
  }

  /** `make()`'s value, made once per use of this instance (see `sdkInContext`). */
  protected sdkPreparedOnce<T>(key: string, make: () => T): T {
    const use = currentUse.getStore() ?? this.#own;
    let prepared = this.#prepared.get(use);
    if (prepared === undefined) {
      prepared = new Map();
      this.#prepared.set(use, prepared);
    }
    if (!prepared.has(key)) prepared.set(key, make());
    return prepared.get(key) as T;
  }

  // The three hooks below are protected, not #private: each out-of-box class gives its own.

  /** The built-in whose logic this class runs. */
  protected abstract sdkBuiltin(): DrivenBuiltin;

  /**
   * The members of this class the user writes (`testCaseMapper`, ...), each `true` when every
   * case calls it: checked before any case (see `sdkPreload`).
   */
  protected abstract sdkMembers(): SdkMembers;

  /** Per-evaluator options, fixed for the whole run (the battle's baselines file). */
  protected sdkFixedOptions(): OptionValues {
    return {};
  }

  /** The chat model to judge with, given the run's (judge classes add their own `model`). */
  protected sdkJudgeModel(runModel: string | undefined): string | undefined {
    return runModel;
  }

  /**
   * Scores one case on `values` (mapped from it). The class's `threshold` field (documented for
   * the out-of-box classes: it replaces the default), else the built-in's default threshold,
   * travels with the evaluation, so a class gates the way the YAML built-in does. The threshold
   * goes in the evaluation rather than being read off the instance by the run: on a plain
   * `BaseTestEvaluator`, a field of that name is the user's own state (see grid-context.ts).
   * It is checked with every returned threshold (a bad one is that evaluation's error).
   */
  protected async sdkScore(values: OptionValues, args: EvaluatorArgs): Promise<Evaluation> {
    const evaluation = await this.#scorerFor()(values, args);
    // Not declared on this class: a subclass of BaseIsEquals sets it without `override`.
    const own = (this as { threshold?: Threshold | null }).threshold;
    const threshold: Threshold | undefined =
      own ?? evaluation.threshold ?? this.sdkBuiltin().defaultThreshold;
    return threshold !== undefined ? { ...evaluation, threshold } : evaluation;
  }

  #scorerFor(): Scorer {
    return this.sdkPreparedOnce('scorer', (): Scorer => {
      const { judge, files, evaluatorId, scrub } = this.sdkContext();
      // An exported instance without an `id` of its own is named by the config (bind.ts).
      const ownId: unknown = this.id;
      return this.sdkBuiltin().direct(this.sdkFixedOptions(), {
        id: typeof ownId === 'string' ? ownId : (evaluatorId ?? ''),
        ...(judge !== undefined
          ? { judge: { ...judge, model: this.sdkJudgeModel(judge.model) } }
          : {}),
        ...(files !== undefined ? { files } : {}),
        ...(scrub !== undefined ? { scrub } : {}),
      });
    });
  }
}

/**
 * Why the calls of `client` cannot reach its server, or null: a client `createJudgeClient` made
 * (one written by hand sends its calls where it likes) whose base URL fetch cannot use, in the
 * words evals.yaml uses for its `baseUrl:` or for the `OPENAI_BASE_URL` it falls back to.
 */
function judgeClientProblem(client: JudgeClient): string | null {
  const source = baseUrlSource(client);
  if (source === 'option') {
    const problem = baseUrlProblem(client.baseUrl);
    return problem === null ? null : `its judge client's baseUrl: ${problem.message}`;
  }
  if (source === 'OPENAI_BASE_URL') {
    const problem = envUrlProblem('OPENAI_BASE_URL', client.baseUrl);
    return problem === null
      ? null
      : `its judge client has no baseUrl, so it calls ${problem.message}`;
  }
  return null;
}

/**
 * Whether `value` is one of the SDK's out-of-box classes, which take model access through
 * `useContext`, and per use through `sdkInContext` (a copy of evalgate from before it may lack
 * that). By shape, not `instanceof`: a module loaded from evals.yaml may import its own copy of
 * evalgate (see bind/modules/shapes.ts).
 */
export function acceptsSdkContext(
  value: unknown,
): value is Pick<BuiltinBackedEvaluator<unknown, unknown>, 'useContext'> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { useContext?: unknown }).useContext === 'function'
  );
}

/** How a run drives an SDK class, whichever copy of evalgate the class comes from. */
export interface SdkClassUse {
  useContext(context: SdkEvaluatorContext): void;
  /** Absent on a class from a copy of evalgate older than per-use contexts. */
  inContext?: <T>(context: SdkEvaluatorContext, call: () => T) => T;
  preload?: () => void;
  /** Absent on a class from a copy of evalgate older than the warnings. */
  warnings?: () => string[];
}

/**
 * The methods a run calls on `evaluator`, one of the SDK's classes (`acceptsSdkContext`), bound
 * to it. A class of an older copy of evalgate (a module's own install) has them under their
 * former names, `inContext` and `preload`: those are read only when the class has no
 * `sdkInContext`, as on a current class they may be the user's own helpers.
 */
export function sdkClassUse(evaluator: Pick<SdkClassUse, 'useContext'>): SdkClassUse {
  const members = evaluator as unknown as Record<string, unknown>;
  const current = typeof members.sdkInContext === 'function';
  const method = (name: string): ((...args: never[]) => unknown) | undefined => {
    const member = members[name];
    return typeof member === 'function'
      ? (...args: never[]) => (member as (...args: never[]) => unknown).apply(evaluator, args)
      : undefined;
  };
  const inContext = method(current ? 'sdkInContext' : 'inContext');
  const preload = method(current ? 'sdkPreload' : 'preload');
  const warnings = current ? method('sdkWarnings') : undefined;
  return {
    useContext: (context) => evaluator.useContext(context),
    ...(inContext !== undefined ? { inContext: inContext as SdkClassUse['inContext'] } : {}),
    ...(preload !== undefined ? { preload } : {}),
    ...(warnings !== undefined ? { warnings: warnings as () => string[] } : {}),
  };
}

/*
 * The checks of what a mapper returned are functions of the module, not members of the class:
 * a member would take a name (`mappedText`) a subclass's own helper may have.
 */

/**
 * The objects the classes call their mappers with (`{ output }`), so that a mapper that returns
 * its argument is told apart from one that returns an object of its own: the Python SDK's
 * `output_mapper(output)` returns the value it is given, and ported with one parameter, so
 * does `outputMapper(output)`, which is given `{ output }`.
 */
const mapperArguments = new WeakSet<object>();

/** `args`, marked as what a mapper is called with (see `mapperArguments`). */
export function mapperArgs<T extends object>(args: T): T {
  mapperArguments.add(args);
  return args;
}

/**
 * What `evaluator`'s `mapper` returned, when it is a string; else that evaluation's error,
 * naming the method as the user wrote it (`IsEquals.testCaseMapper`; the evaluation names the
 * evaluator). Mappers are user code, untyped at run time: a misspelt field on both sides of
 * `BaseIsEquals` gives `undefined === undefined`, a pass for every case.
 */
export function mappedText(evaluator: object, mapper: string, value: unknown): string {
  if (typeof value === 'string') return value;
  throw wrongResult(evaluator, mapper, value, 'a string');
}

/** What `evaluator`'s `mapper` returned, when it is an array of strings; else as `mappedText`. */
export function mappedTexts(evaluator: object, mapper: string, value: unknown): string[] {
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  throw wrongResult(evaluator, mapper, value, 'an array of strings');
}

/**
 * What `evaluator`'s `mapper` returned, when it is an array (the built-in checks its items); a
 * string is refused too, which the built-in would otherwise read as JSON.
 */
export function mappedArray(
  evaluator: object,
  mapper: string,
  value: unknown,
  items: string,
): unknown[] {
  if (Array.isArray(value)) return value;
  throw wrongResult(evaluator, mapper, value, `an array of ${items}`);
}

/** The evaluation error of a mapper that returned `value` where `expected` was due. */
function wrongResult(
  evaluator: object,
  mapper: string,
  value: unknown,
  expected: string,
): EvaluationError {
  const method = methodOf(evaluator, mapper);
  if (typeof value === 'object' && value !== null && mapperArguments.has(value)) {
    return new EvaluationError(
      `${method} returned ${describeValue(value)}, the very object it is called with; expected ${expected}: it takes that one object, as in the Autoblocks TypeScript SDK, and returns what it maps from it: ${memberForm(mapper)}`,
    );
  }
  return new EvaluationError(`${method} returned ${shown(value)}; expected ${expected}`);
}

/** `IsEquals.testCaseMapper`: the user's class, which is where the method is written. */
function methodOf(evaluator: object, name: string): string {
  const className = evaluator.constructor.name;
  return className !== '' ? `${className}.${name}` : name;
}

/** A mapper's result in a message: `undefined` by its name, as the JavaScript slip reads. */
function shown(value: unknown): string {
  return value === undefined ? 'undefined' : describeValue(value);
}

function definedOf(context: SdkEvaluatorContext): SdkEvaluatorContext {
  return Object.fromEntries(Object.entries(context).filter(([, value]) => value !== undefined));
}

/** The args of a mapper that reads the case. */
export interface TestCaseArgs<TCase> {
  testCase: TCase;
}

/** The args of a mapper that reads the output. */
export interface OutputArgs<TOutput> {
  output: TOutput;
}

/** The args of a mapper that reads both. */
export interface CaseOutputArgs<TCase, TOutput> {
  testCase: TCase;
  output: TOutput;
}
