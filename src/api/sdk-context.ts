/**
 * Model access and files for the SDK's out-of-box classes run by `runTestSuite`: the same judge
 * client (cache, retries, per-host cap, usage) `evals run` gives its judge built-ins, built here
 * at the edge from the arguments and the environment (`OPENAI_BASE_URL`, `OPENAI_API_KEY`).
 */
import { resolve } from 'node:path';
import { createJudgeClient } from '../judge/client.ts';
import type { JudgeClient } from '../judge/types.ts';
import type { PriceTable } from '../judge/usage.ts';
import { BuiltinBackedEvaluator } from '../evaluators/sdk/builtin-backed.ts';
import type { BuiltinFiles, JudgeContext } from '../evaluators/types.ts';
import type { Issue } from '../shared/errors.ts';
import { argumentsError } from './check-arguments.ts';

/** `runTestSuite`'s `judge` argument: where the SDK's judge classes send their calls. */
export interface SuiteJudgeSettings {
  /** A client of your own (default: one from `OPENAI_BASE_URL` / `OPENAI_API_KEY`). */
  client?: JudgeClient;
  /** Chat model (default: each class's `model`, else `gpt-4o` as in the SDK). */
  model?: string;
  /** Embeddings model for `BaseRagasSemanticSimilarity` (default `text-embedding-3-small`). */
  embeddingModel?: string;
  /** Default 0. */
  temperature?: number;
  /** For the cost in each evaluation's usage. */
  prices?: PriceTable;
  /** Cache folder for the default client (default: none, every call goes to the server). */
  cacheDir?: string;
}

/** The embeddings model the SDK classes use when none is set. */
export const SDK_DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';

/**
 * Hands every SDK class among `evaluators` its judge and baseline files. Returns the flushes
 * to run after the suite (an automatic battle's baselines), in order.
 */
export function attachSdkContext(
  evaluators: readonly unknown[],
  suite: { id: string; judge?: SuiteJudgeSettings; baselinesDir?: string },
  cwd: string,
): (() => Promise<void>)[] {
  const sdk = evaluators.filter(
    (e): e is BuiltinBackedEvaluator<unknown, unknown> => e instanceof BuiltinBackedEvaluator,
  );
  const flushes: (() => Promise<void>)[] = [];
  if (sdk.length === 0) return flushes;
  const settings = suite.judge ?? {};
  let client = settings.client;
  const judge: JudgeContext = {
    // Created on first use: a suite of deterministic classes never builds a client.
    get client(): JudgeClient {
      client ??= createJudgeClient({ cacheDir: settings.cacheDir ?? null });
      return client;
    },
    model: settings.model,
    embeddingModel: settings.embeddingModel ?? SDK_DEFAULT_EMBEDDING_MODEL,
    temperature: settings.temperature ?? 0,
    prices: settings.prices,
  };
  const files: BuiltinFiles = {
    configDir: suite.baselinesDir !== undefined ? resolve(cwd, suite.baselinesDir) : cwd,
    suiteId: suite.id,
    // The SDK's automatic battle keeps the better answer: a winning output replaces the baseline.
    updateBaselines: true,
    onRunEnd: (flush) => flushes.push(flush),
  };
  const problems: Issue[] = [];
  sdk.forEach((evaluator, i) => {
    evaluator.useContext({ judge, files });
    // Settings known before any case (a judge class's `scoreChoices`, its overrides store) are
    // checked now, as evals.yaml checks them at load: one error, not one per case.
    try {
      evaluator.preload();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      problems.push({
        code: 'sdk.argument',
        file: '',
        line: 0,
        col: 0,
        path: `evaluators[${evaluators.indexOf(evaluator)}]`,
        message: `evaluators[${evaluators.indexOf(evaluator)}] (${evaluatorName(evaluator, i)}): ${message}`,
      });
    }
  });
  if (problems.length > 0) throw argumentsError(suite.id, problems);
  return flushes;
}

/** The class of an evaluator as the user wrote it, for a message. */
function evaluatorName(evaluator: object, index: number): string {
  const name = evaluator.constructor.name;
  return name !== '' ? name : `evaluator ${index + 1}`;
}
