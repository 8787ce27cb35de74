/**
 * Judge built-ins called directly against the loopback OpenAI-compatible server: a judge
 * context on its URL, one evaluation of a built-in, scripted 1/0 verdicts, and the
 * `EvaluationError` a rejected evaluation carries.
 */
import assert from 'node:assert/strict';
import type { BuiltinEvaluatorName } from '../../src/evaluators/registry.ts';
import type { JudgeContext } from '../../src/evaluators/types.ts';
import { EvaluationError } from '../../src/shared/errors.ts';
import type { Evaluation } from '../../src/types/index.ts';
import type { OpenAiServer, ScriptedAnswer } from './openai-server.ts';
import { loopbackJudge } from './loopback-judge.ts';
import { evaluate } from './rag-evaluators.ts';

/** A judge context whose chat model is `judge-model` at `server`, no cache, no retries. */
export function judgeOn(server: OpenAiServer): JudgeContext {
  return loopbackJudge(server.url);
}

/** One evaluation of built-in `name` with `options` on a case and an output. */
export async function evaluateBuiltin(
  judge: JudgeContext,
  name: BuiltinEvaluatorName,
  options: Record<string, unknown>,
  testCase: Record<string, unknown>,
  output: unknown,
): Promise<Evaluation> {
  return await evaluate(name, options, testCase, output, judge);
}

/** An answer giving these verdicts, with reasons `r1`, `r2`, … */
export function verdicts(...values: unknown[]): ScriptedAnswer {
  return {
    toolArguments: { verdicts: values.map((verdict, i) => ({ reason: `r${i + 1}`, verdict })) },
  };
}

/** The error `promise` rejects with, asserting it is an `EvaluationError`. */
export async function evaluationError(promise: Promise<unknown>): Promise<EvaluationError> {
  let caught: unknown;
  await assert.rejects(promise, (error) => {
    caught = error;
    return error instanceof EvaluationError;
  });
  return caught as EvaluationError;
}

/** The system and user messages of request `index`, joined. */
export function promptOf(server: OpenAiServer, index: number): string {
  const body = server.requests[index]?.body as { messages: { content: string }[] } | undefined;
  return (body?.messages ?? []).map((m) => m.content).join('\n');
}

/** The forced tool of request `index`. */
export function toolOf(server: OpenAiServer, index: number): string | undefined {
  const body = server.requests[index]?.body as
    { tool_choice?: { function?: { name?: string } } } | undefined;
  return body?.tool_choice?.function?.name;
}
