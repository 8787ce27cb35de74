/**
 * Fixtures for tests of the judge built-ins (llm-judge, accuracy, nsfw, toxicity, the battles):
 * a judge context pointing at the fake server of judge-server.ts, and readers of the chat
 * requests it recorded.
 */
import assert from 'node:assert/strict';
import { EvaluationError } from '../../src/shared/errors.ts';
import { createJudgeClient, type JudgeClientOptions } from '../../src/judge/client.ts';
import { builtinEvaluators, type BuiltinEvaluatorName } from '../../src/evaluators/registry.ts';
import type { BuiltinFiles, JudgeContext } from '../../src/evaluators/types.ts';
import type { EngineEvaluator, Evaluation, Params } from '../../src/types/index.ts';
import { server } from './judge-server.ts';
import type { RecordedRequest } from './openai-server.ts';

/** A judge context whose client talks to {@link server}: model `judge-model`, priced, no cache. */
export function judgeContext(
  overrides: Partial<JudgeContext> = {},
  client: Partial<JudgeClientOptions> = {},
): JudgeContext {
  return {
    client: createJudgeClient({
      baseUrl: server.url,
      apiKey: 'sk-test-secret',
      cacheDir: null,
      maxRetries: 1,
      env: {},
      ...client,
    }),
    model: 'judge-model',
    embeddingModel: undefined,
    temperature: 0,
    prices: { 'judge-model': { prompt: 1, completion: 2 } },
    ...overrides,
  };
}

/**
 * Creates the built-in `name` with `options`, judged by {@link judgeContext} unless `judge: null`,
 * scrubbing what it cuts with `scrub` when given.
 */
export function create(
  name: BuiltinEvaluatorName,
  options: Record<string, unknown>,
  extra: {
    judge?: JudgeContext | null;
    files?: BuiltinFiles;
    id?: string;
    scrub?: (text: string) => string;
  } = {},
): EngineEvaluator {
  const judge = extra.judge === null ? undefined : (extra.judge ?? judgeContext());
  return builtinEvaluators[name].create(options, {
    id: extra.id ?? name,
    ...(judge !== undefined ? { judge } : {}),
    ...(extra.files !== undefined ? { files: extra.files } : {}),
    ...(extra.scrub !== undefined ? { scrub: extra.scrub } : {}),
  });
}

/** Evaluates one case and output the way the engine would. */
export async function evaluate(
  evaluator: EngineEvaluator,
  testCase: Record<string, unknown>,
  output: unknown,
  params: Params = {},
): Promise<Evaluation> {
  return evaluator.evaluateTestCase({
    testCase,
    output,
    params,
    durationMs: 0,
    signal: new AbortController().signal,
  });
}

/** The rejection of `promise`, which must be an EvaluationError. */
export async function evaluationError(promise: Promise<unknown>): Promise<EvaluationError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(
      error instanceof EvaluationError,
      `expected an EvaluationError, got ${String(error)}`,
    );
    return error;
  }
  assert.fail('expected the evaluation to fail');
}

/** A chat request as {@link sent} reads it. */
export interface SentChat {
  system: string | undefined;
  prompt: string;
  body: Record<string, unknown>;
}

/** What a chat request asked: its system and user messages, and the body. */
export function sent(request: RecordedRequest | undefined): SentChat {
  assert.ok(request, 'expected a request');
  const body = request.body as Record<string, unknown>;
  const messages = body.messages as { role: string; content: string }[];
  return {
    system: messages.find((m) => m.role === 'system')?.content,
    prompt: messages.find((m) => m.role === 'user')?.content ?? '',
    body,
  };
}

/** The text between `<tag>` lines of a prompt. */
export function section(prompt: string, tag: string): string | undefined {
  const match = new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`).exec(prompt);
  return match?.[1];
}

/**
 * The numbered items `<tag N>` of a chat request's messages, in order: the claims, statements
 * or passages a RAG built-in asks the judge about.
 */
export function numbered(request: RecordedRequest, tag: string): string[] {
  const body = request.body as { messages: { content: string }[] };
  const text = body.messages.map((m) => m.content).join('\n');
  const pattern = new RegExp(`<${tag} (\\d+)>\\n([\\s\\S]*?)\\n</${tag} \\1>`, 'g');
  return [...text.matchAll(pattern)].map((m) => m[2] ?? '');
}

/** A scripted answer whose forced tool call picks `choice`, for `reason`. */
export const verdict = (choice: string, reason = `picked ${choice}`) => ({
  toolArguments: { reason, choice },
});
