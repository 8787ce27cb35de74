/**
 * Fixtures for tests of the RAG and similarity built-ins: the fake server of judge-server.ts, a
 * judge context pointing at it through the real judge client, and a one-call evaluation.
 */
import { builtinEvaluators, type BuiltinEvaluatorName } from '../../src/evaluators/registry.ts';
import type { JudgeContext } from '../../src/evaluators/types.ts';
import type { Evaluation } from '../../src/types/index.ts';
import { loopbackJudge } from './loopback-judge.ts';
import { server, useJudgeServer } from './judge-server.ts';

/**
 * The judge context talking to {@link server}: chat model `judge-model`, embeddings model
 * `embed-model`, no cache, no prices. Set by {@link useRagServer}'s hooks, once the server runs.
 */
export let judge: JudgeContext;

/**
 * Registers the hooks that start {@link server} (see {@link useJudgeServer}) and build
 * {@link judge} on it as soon as it runs. Call once, at the top level of a test file.
 */
export function useRagServer(): void {
  useJudgeServer(() => {
    judge = loopbackJudge(server.url, { maxRetries: 1, embeddingModel: 'embed-model' });
  });
}

/**
 * Creates the built-in `name` with `options` (judged by `context`, default {@link judge}) and
 * evaluates one case and output with it.
 */
export async function evaluate(
  name: BuiltinEvaluatorName,
  options: Record<string, unknown>,
  testCase: Record<string, unknown>,
  output: unknown,
  context: JudgeContext | undefined = judge,
): Promise<Evaluation> {
  const evaluator = builtinEvaluators[name].create(options, {
    id: name,
    ...(context !== undefined ? { judge: context } : {}),
  });
  // Awaited so a synchronous throw (the matching built-ins) rejects like an async one.
  return await Promise.resolve(
    evaluator.evaluateTestCase({
      testCase,
      output,
      params: {},
      durationMs: 0,
      signal: new AbortController().signal,
    }),
  );
}
