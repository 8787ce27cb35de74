/**
 * Model access and files for the SDK's out-of-box classes run by `runTestSuite`: the same judge
 * client (cache, retries, per-host cap, usage) `evals run` gives its judge built-ins, built here
 * at the edge from the arguments and the environment (`OPENAI_BASE_URL`, `OPENAI_API_KEY`).
 */
import { resolve } from 'node:path';
import { firstRecording } from '../bind/models.ts';
import { createJudgeClient } from '../judge/client.ts';
import { createScrubber, secretsInEnv } from '../shared/secrets.ts';
import type { JudgeClient } from '../judge/types.ts';
import type { PriceTable } from '../judge/usage.ts';
import {
  BuiltinBackedEvaluator,
  type SdkEvaluatorContext,
} from '../evaluators/sdk/builtin-backed.ts';
import type { BuiltinFiles, JudgeContext } from '../evaluators/types.ts';
import type { Issue } from '../shared/errors.ts';
import { argumentsError } from './arguments-error.ts';
import type { CallTracker } from './grid-context.ts';

/** `runTestSuite`'s `judge` argument: where the SDK's judge classes send their calls. */
export interface SuiteJudgeSettings {
  /** A client of your own (default: one from `OPENAI_BASE_URL` / `OPENAI_API_KEY`). */
  client?: JudgeClient;
  /**
   * Chat model of the classes that set no `model` of their own (a class's wins), default
   * `gpt-4o` as in the SDK.
   */
  model?: string;
  /** Embeddings model for `BaseRagasSemanticSimilarity` (default `text-embedding-3-small`). */
  embeddingModel?: string;
  /** Default 0. */
  temperature?: number;
  /** For the cost in each evaluation's usage. */
  prices?: PriceTable;
  /** Cache folder for the default client (default: none, every call goes to the server); refused beside `client`, which takes its own (`createJudgeClient({ cacheDir })`). */
  cacheDir?: string;
}

/** The embeddings model the SDK classes use when none is set. */
export const SDK_DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';

/** The context one `runTestSuite` call hands its SDK classes' calls, and what to do after it. */
export interface SuiteSdkContext {
  context: SdkEvaluatorContext;
  /**
   * The flushes to run after the suite (an automatic battle's baselines), in order; each may
   * resolve to a note for the terminal (what it recorded).
   */
  flushes: (() => Promise<string | undefined>)[];
}

/**
 * The judge and baseline files of one `runTestSuite` call. Its own, not its evaluators': an
 * instance two calls share judges each call's cases with that call's settings and keeps
 * baselines under that call's suite (see BuiltinBackedEvaluator.sdkInContext).
 */
export function suiteSdkContext(
  suite: {
    id: string;
    judge?: SuiteJudgeSettings;
    baselinesDir?: string;
    updateBaselines?: boolean;
  },
  cwd: string,
  env: Record<string, string | undefined>,
  secrets: readonly string[] = [],
): SuiteSdkContext {
  const settings = suite.judge ?? {};
  let client = settings.client;
  // The run's secrets, as the run scrubs them: the built-ins remove them from what they quote
  // before they cut it, and the default client from the answers and errors it hands out.
  const runSecrets = [...secretsInEnv(env), ...secrets];
  const judge: JudgeContext = {
    // Created on first use: a suite of deterministic classes never builds a client.
    get client(): JudgeClient {
      client ??= createJudgeClient({ cacheDir: settings.cacheDir ?? null, secrets: runSecrets });
      return client;
    },
    model: settings.model,
    embeddingModel: settings.embeddingModel ?? SDK_DEFAULT_EMBEDDING_MODEL,
    temperature: settings.temperature ?? 0,
    prices: settings.prices,
  };
  const flushes: (() => Promise<string | undefined>)[] = [];
  const inCi = firstRecording(env);
  const files: BuiltinFiles = {
    configDir: suite.baselinesDir !== undefined ? resolve(cwd, suite.baselinesDir) : cwd,
    suiteId: suite.id,
    // As `evals run`: in CI a missing baselines file is an error for each case, not a file
    // recorded on the runner (every case recorded again, judging nothing, run after run). Outside CI the SDK's
    // automatic battle keeps the better answer by default: a winning output replaces the baseline.
    ...inCi,
    updateBaselines: suite.updateBaselines ?? inCi.noFirstRecording === undefined,
    updateHint: `pass updateBaselines: true to runTestSuite(${suite.id})`,
    onRunEnd: (flush) => flushes.push(flush),
  };
  const scrub = createScrubber(runSecrets).text;
  return { context: { judge, files, scrub }, flushes };
}

/** How the run makes each call of `evaluator`: by `track`, in the suite's context for an SDK class. */
export function sdkCallTracker(
  evaluator: unknown,
  sdk: SuiteSdkContext,
  track: CallTracker,
): CallTracker {
  if (!(evaluator instanceof BuiltinBackedEvaluator)) return track;
  return (call) => track(() => evaluator.sdkInContext(sdk.context, call));
}

/**
 * Checks the settings of every SDK class among `evaluators` known before any case (a judge
 * class's `scoreChoices`, its overrides store), in the suite's context, as evals.yaml checks
 * them at load: one usage error naming each, not one error per case. Returns the warnings of
 * the settings accepted for now (a battle without `criteria`), each naming its evaluator.
 */
export function preloadSdkClasses(
  evaluators: readonly unknown[],
  sdk: SuiteSdkContext,
  suiteId: string,
): string[] {
  const problems: Issue[] = [];
  const warnings: string[] = [];
  evaluators.forEach((evaluator, index) => {
    if (!(evaluator instanceof BuiltinBackedEvaluator)) return;
    try {
      evaluator.sdkInContext(sdk.context, () => evaluator.sdkPreload());
      for (const warning of evaluator.sdkWarnings()) {
        warnings.push(`evaluators[${index}] (${evaluatorName(evaluator, index)}) ${warning}`);
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      problems.push({
        code: 'sdk.argument',
        file: '',
        line: 0,
        col: 0,
        path: `evaluators[${index}]`,
        message: `evaluators[${index}] (${evaluatorName(evaluator, index)}): ${message}`,
      });
    }
  });
  if (problems.length > 0) throw argumentsError(suiteId, problems);
  return warnings;
}

/** The class of an evaluator as the user wrote it, for a message. */
function evaluatorName(evaluator: object, index: number): string {
  const name = evaluator.constructor.name;
  return name !== '' ? name : `evaluator ${index + 1}`;
}
