/**
 * The judge context the built-in evaluator tests judge with: the real judge client on the
 * loopback OpenAI-compatible server (openai-server.ts), so every request goes over HTTP.
 */
import type { JudgeContext } from '../../src/evaluators/types.ts';
import { createJudgeClient } from '../../src/judge/client.ts';

/** What differs between the tests' judges: the retries, and the model the embedding built-ins use. */
export interface LoopbackJudgeOptions {
  /** Retries of a failed request (default 0). */
  maxRetries?: number;
  /** The embeddings model (default none). */
  embeddingModel?: string;
}

/**
 * A judge context at `url` with chat model `judge-model`, API key `sk-test`, no cache and no
 * prices. The client is told no secret, as one made in code: a scrub is the built-in's own.
 */
export function loopbackJudge(url: string, options: LoopbackJudgeOptions = {}): JudgeContext {
  return {
    client: createJudgeClient({
      baseUrl: url,
      apiKey: 'sk-test',
      cacheDir: null,
      maxRetries: options.maxRetries ?? 0,
    }),
    model: 'judge-model',
    embeddingModel: options.embeddingModel,
    temperature: 0,
    prices: undefined,
  };
}
