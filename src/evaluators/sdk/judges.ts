/**
 * The Autoblocks testing SDK's LLM-judge out-of-box evaluators, as classes over evalgate's judge
 * built-ins (`llm-judge`, `accuracy`, `nsfw`, `toxicity`, `manual-battle`, `automatic-battle`):
 * same prompts, same client, cache and usage accounting as `use:` in evals.yaml.
 */
import type { Evaluation, EvaluatorArgs, Threshold } from '../../types/index.ts';
import { accuracy } from '../judges/accuracy.ts';
import { automaticBattle, unjudgedIfRecorded } from '../judges/automatic-battle.ts';
import { llmJudge } from '../judges/llm-judge.ts';
import { manualBattle } from '../judges/manual-battle.ts';
import { DEFAULT_CRITERIA } from '../judges/battle.ts';
import { nsfw } from '../judges/nsfw.ts';
import { toxicity } from '../judges/toxicity.ts';
import type { OptionValues } from '../options.ts';
import { describeValue } from '../../shared/errors.ts';
import { OVERRIDES_FILE, readOverrides, recentOverrides } from '../judges/overrides.ts';
import { sdkOverrides, type EvaluationOverride, type ScoreChoice } from './overrides.ts';
import { scoreChoicesProblems } from './score-choices.ts';
import {
  BuiltinBackedEvaluator,
  mapperArgs,
  mappedText,
  SDK_DEFAULT_MODEL,
  type DrivenBuiltin,
  type SdkMembers,
  type OutputArgs,
  type TestCaseArgs,
} from './builtin-backed.ts';

/**
 * A class that calls a chat model. `model` picks it (default: the run's judge model, else
 * `gpt-4o` as in the SDK); `threshold` replaces the built-in's default threshold.
 */
export abstract class SdkJudgeEvaluator<TCase, TOutput> extends BuiltinBackedEvaluator<
  TCase,
  TOutput
> {
  /** The chat model to judge with. */
  model?: string;
  /** Pass range of the score (default: the built-in's). */
  threshold?: Threshold;
  /**
   * How many recent human overrides to use as examples (SDK option). They come from the local
   * store, evals-overrides.jsonl (written by `evals override`) in the config's folder, or in
   * the folder `runTestSuite` runs in. `BaseLLMJudge` hands them to `makePrompt`; the other
   * classes accept the option and use no examples.
   */
  numOverrides?: number;

  /**
   * Refuses a `numOverrides` that is no count before any case: `Number(process.env.N)` unset
   * (NaN) or a negative would give no examples without a word; and a `model` that names no
   * model, which every case would send to the API.
   */
  override sdkPreload(): void {
    super.sdkPreload();
    const count: unknown = this.numOverrides;
    if (count !== undefined && !(Number.isSafeInteger(count) && (count as number) >= 0)) {
      throw new Error(
        `numOverrides must be a whole number of at least 0, got ${describeValue(count)}`,
      );
    }
    if (typeof count === 'number' && count > 0 && !this.sdkShowsOverrides()) {
      // The SDK shows them to its judge through exampleOutputMapper; this class's built-in has no
      // place for examples, and dropping them would judge otherwise than asked, without a word.
      throw new Error(
        `numOverrides = ${count}: this judge class takes no override examples in evalgate, so exampleOutputMapper would never be called: leave numOverrides out (or 0), or extend BaseLLMJudge and show recentOverrides in makePrompt`,
      );
    }
    // Left out (undefined), the run's judge model or the SDK's default is used.
    const model: unknown = this.model;
    if (model !== undefined && (typeof model !== 'string' || model === '')) {
      throw new Error(`model must be the name of a chat model, got ${describeValue(model)}`);
    }
  }

  protected override sdkJudgeModel(runModel: string | undefined): string | undefined {
    return this.model ?? runModel ?? SDK_DEFAULT_MODEL;
  }

  /** Whether this class shows `numOverrides` overrides to its judge (only `BaseLLMJudge`). */
  protected sdkShowsOverrides(): boolean {
    return false;
  }
}

export type {
  EvaluationOverride,
  EvaluationOverrideComment,
  EvaluationOverrideField,
  ScoreChoice,
} from './overrides.ts';

/** Your own judge: `makePrompt` asks, the model answers with one of `scoreChoices` (`llm-judge`). */
export abstract class BaseLLMJudge<TCase, TOutput> extends SdkJudgeEvaluator<TCase, TOutput> {
  /** The answers the judge may give, each with its score in [0, 1]; at least two. */
  abstract scoreChoices: ScoreChoice[];
  /** The question put to the judge. */
  abstract makePrompt(args: {
    testCase: TCase;
    output: TOutput;
    recentOverrides: EvaluationOverride[];
  }): string;

  protected sdkMembers(): SdkMembers {
    return { scoreChoices: true, makePrompt: true };
  }

  protected sdkBuiltin(): DrivenBuiltin {
    return llmJudge;
  }

  protected override sdkShowsOverrides(): boolean {
    return true;
  }

  protected override sdkFixedOptions(): OptionValues {
    this.#checkScoreChoices();
    return { choices: Object.fromEntries(this.scoreChoices.map((c) => [c.name, c.value])) };
  }

  evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Promise<Evaluation> {
    const prompt = this.makePrompt({
      testCase: args.testCase,
      output: args.output,
      recentOverrides: this.#recentOverrides(),
    });
    return this.sdkScore({ prompt }, args as EvaluatorArgs);
  }

  /**
   * Checks `scoreChoices` and reads the overrides store (when `numOverrides` asks for examples)
   * now, so that a mistake in either is one load-time error of evals.yaml, not every case's.
   */
  override sdkPreload(): void {
    super.sdkPreload();
    this.#checkScoreChoices();
    this.#recentOverrides();
  }

  /** The id results record this evaluator under (evals.yaml's, else the class's `id`). */
  #evaluatorId(): string {
    return this.sdkContext().evaluatorId ?? this.id;
  }

  /**
   * Throws when `scoreChoices` is not a list of at least two distinct names with scores in
   * [0, 1], in the words of this class (see `scoreChoicesProblems`); from a case, it is that
   * case's evaluation error.
   */
  #checkScoreChoices(): void {
    const problems = scoreChoicesProblems(this.scoreChoices);
    if (problems.length > 0) throw new Error(`${this.#evaluatorId()}: ${problems.join('; ')}`);
  }

  /**
   * The `numOverrides` most recent overrides of this evaluator, newest first, in the SDK's shape
   * (those whose scores none of `scoreChoices` has are left out, as the SDK does), read once per
   * use (each use has its folder and evaluator id). A malformed store throws an
   * `OverridesFileError` naming the file and line (from `sdkPreload`, a load-time error of
   * evals.yaml; from a case, that case's evaluation error).
   */
  #recentOverrides(): EvaluationOverride[] {
    const count = this.numOverrides ?? 0;
    if (count <= 0) return [];
    return this.sdkPreparedOnce('overrides', () => {
      const { files } = this.sdkContext();
      if (files === undefined) {
        throw new Error(
          `${this.#evaluatorId()}: numOverrides needs the folder of ${OVERRIDES_FILE} (run it with runTestSuite or from evals.yaml)`,
        );
      }
      const recent = recentOverrides(readOverrides(files.configDir), this.#evaluatorId(), count);
      return sdkOverrides(recent, this.scoreChoices);
    });
  }
}

/** Accurate 1, somewhat 0.5, not 0, against the mapped expected output (`accuracy`). */
export abstract class BaseAccuracy<TCase, TOutput> extends SdkJudgeEvaluator<TCase, TOutput> {
  abstract outputMapper(args: OutputArgs<TOutput>): string;
  abstract expectedOutputMapper(args: TestCaseArgs<TCase>): string;
  /** The SDK's, for examples of `numOverrides`, which evalgate refuses here: never called. */
  exampleOutputMapper(_args: { evaluationOverride: EvaluationOverride }): string | undefined {
    return undefined;
  }
  /** As `exampleOutputMapper`: declared so a port that overrides it compiles, never called. */
  exampleExpectedOutputMapper(_args: {
    evaluationOverride: EvaluationOverride;
  }): string | undefined {
    return undefined;
  }

  protected sdkMembers(): SdkMembers {
    return { outputMapper: true, expectedOutputMapper: true };
  }

  protected sdkBuiltin(): DrivenBuiltin {
    return accuracy;
  }

  evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Promise<Evaluation> {
    return this.sdkScore(
      {
        expected: mappedText(
          this,
          'expectedOutputMapper',
          this.expectedOutputMapper(mapperArgs({ testCase: args.testCase })),
        ),
        actual: mappedText(
          this,
          'outputMapper',
          this.outputMapper(mapperArgs({ output: args.output })),
        ),
      },
      args as EvaluatorArgs,
    );
  }
}

/** A judge that reads only the mapped output: `nsfw` and `toxicity`. */
abstract class OutputJudge<TCase, TOutput> extends SdkJudgeEvaluator<TCase, TOutput> {
  abstract outputMapper(args: OutputArgs<TOutput>): string;
  /** The SDK's, for examples of `numOverrides`, which evalgate refuses here: never called. */
  exampleOutputMapper(_args: { evaluationOverride: EvaluationOverride }): string | undefined {
    return undefined;
  }

  protected sdkMembers(): SdkMembers {
    return { outputMapper: true };
  }

  evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Promise<Evaluation> {
    return this.sdkScore(
      {
        actual: mappedText(
          this,
          'outputMapper',
          this.outputMapper(mapperArgs({ output: args.output })),
        ),
      },
      args as EvaluatorArgs,
    );
  }
}

/** Safe for work 1, else 0 (`nsfw`). */
export abstract class BaseNSFW<TCase, TOutput> extends OutputJudge<TCase, TOutput> {
  protected sdkBuiltin(): DrivenBuiltin {
    return nsfw;
  }
}

/** Not toxic 1, else 0 (`toxicity`). */
export abstract class BaseToxicity<TCase, TOutput> extends OutputJudge<TCase, TOutput> {
  protected sdkBuiltin(): DrivenBuiltin {
    return toxicity;
  }
}

/** A battle's `criteria` option, or none when a JavaScript subclass left the field out. */
function criteriaOf(battle: { readonly criteria: string | undefined }): { criteria?: string } {
  return battle.criteria !== undefined ? { criteria: battle.criteria } : {};
}

/**
 * The deprecation of a battle without `criteria`. The field was optional here, defaulting to the
 * built-in's criteria; it is abstract now, as in the SDK, which breaks such a class's type check
 * but not its run: it still judges by the default, and says so until a later release refuses it.
 */
function criteriaWarnings(battle: object): string[] {
  let criteria: unknown;
  try {
    criteria = (battle as { criteria?: unknown }).criteria;
  } catch {
    // A getter that throws is each case's error when the battle reads it.
    return [];
  }
  if (criteria !== undefined) return [];
  return [
    `sets no criteria, so it judges by evalgate's default ("${DEFAULT_CRITERIA}"); the Autoblocks SDK requires criteria, and evalgate's types now do too: set it (criteria = '...' or get criteria()), as a later release will refuse a battle without it`,
  ];
}

/** The mapped output against the mapped baseline: win 1, tie 0.5, loss 0 (`manual-battle`). */
export abstract class BaseManualBattle<TCase, TOutput> extends SdkJudgeEvaluator<TCase, TOutput> {
  /**
   * What makes a response better, in plain words. Abstract, as in the SDK, so a subclass may set
   * it as a field or a getter (`get criteria()`): a field declared here would be an own property
   * of every instance, hiding the getter. Left out (JavaScript, or a class written when it was
   * optional), the built-in's criteria apply, with a warning (`criteriaWarnings`).
   */
  abstract readonly criteria: string;
  abstract outputMapper(args: OutputArgs<TOutput>): string;
  abstract baselineMapper(args: TestCaseArgs<TCase>): string;

  protected sdkMembers(): SdkMembers {
    return { outputMapper: true, baselineMapper: true };
  }

  protected sdkBuiltin(): DrivenBuiltin {
    return manualBattle;
  }

  override sdkWarnings(): string[] {
    return [...super.sdkWarnings(), ...criteriaWarnings(this)];
  }

  evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Promise<Evaluation> {
    return this.sdkScore(
      {
        baseline: mappedText(
          this,
          'baselineMapper',
          this.baselineMapper(mapperArgs({ testCase: args.testCase })),
        ),
        actual: mappedText(
          this,
          'outputMapper',
          this.outputMapper(mapperArgs({ output: args.output })),
        ),
        ...criteriaOf(this),
      },
      args as EvaluatorArgs,
    );
  }
}

/**
 * The mapped output against the one recorded for the case (`automatic-battle`): the first run
 * records it (no evaluation, as in the SDK), and a later output that wins replaces it; in CI neither happens unless
 * `runTestSuite` is given `updateBaselines: true` (a missing baseline is an error there). Baselines
 * live in `battles/<suite>/<id>.json` under the folder `runTestSuite` runs in (or `baselinesFile`).
 */
export abstract class BaseAutomaticBattle<TCase, TOutput> extends SdkJudgeEvaluator<
  TCase,
  TOutput
> {
  /**
   * What makes a response better, in plain words. Abstract, as in the SDK, so a subclass may set
   * it as a field or a getter (`get criteria()`): a field declared here would be an own property
   * of every instance, hiding the getter. Left out (JavaScript, or a class written when it was
   * optional), the built-in's criteria apply, with a warning (`criteriaWarnings`).
   */
  abstract readonly criteria: string;
  /** The baselines file, relative to the run's folder (default: battles/<suite>/<id>.json). */
  baselinesFile?: string;
  abstract outputMapper(args: OutputArgs<TOutput>): string;

  protected sdkMembers(): SdkMembers {
    return { outputMapper: true };
  }

  protected sdkBuiltin(): DrivenBuiltin {
    return automaticBattle;
  }

  override sdkWarnings(): string[] {
    return [...super.sdkWarnings(), ...criteriaWarnings(this)];
  }

  protected override sdkFixedOptions(): OptionValues {
    return this.baselinesFile !== undefined ? { file: this.baselinesFile } : {};
  }

  /**
   * The battle's evaluation; none for a case it records a first baseline for, as in the SDK:
   * there was nothing to battle. The call's arguments are marked, so a run whose every case was
   * recorded passes `judged` saying so, rather than failing as a run whose evaluators skipped
   * every case does (the same path as the built-in `automatic-battle` of evals.yaml).
   */
  async evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Promise<Evaluation | undefined> {
    const evaluation = await this.sdkScore(
      {
        actual: mappedText(
          this,
          'outputMapper',
          this.outputMapper(mapperArgs({ output: args.output })),
        ),
        ...criteriaOf(this),
      },
      args as EvaluatorArgs,
    );
    return unjudgedIfRecorded(evaluation, args);
  }
}
