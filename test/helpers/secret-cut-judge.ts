/**
 * For the tests of a judge's quotes of a secret, cut: the secret, how the fake judge quotes it
 * after a run of `p`s, a refusal as the judge's answer, and one evaluation of a built-in whose
 * own scrub knows the secret.
 */
import type { BuiltinEvaluatorName } from '../../src/evaluators/registry.ts';
import type { JudgeContext } from '../../src/evaluators/types.ts';
import { createScrubber } from '../../src/shared/secrets.ts';
import { create, evaluate } from './judge-evaluators.ts';
import type { ScriptedAnswer } from './openai-server.ts';

/** The secret of the run, which the fake judge quotes. */
export const X_SECRET = 'Zq7Xw9Lm2Np4Rt6VbK3d';

/** `'p'` repeated `n` times, then the secret: how the judge quotes the output. */
export const quote = (n: number): string => 'p'.repeat(n) + X_SECRET;

/** A chat completion whose message is a refusal saying `said`, in place of a tool call. */
export function refusal(said: string): ScriptedAnswer {
  const message = { role: 'assistant', content: null, refusal: said };
  return {
    body: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      model: 'judge-model',
      choices: [{ index: 0, message, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    },
  };
}

/** What one evaluation left: its metadata, or the error's message and metadata. */
export interface Outcome {
  message?: string;
  metadata: unknown;
}

const scrub = createScrubber([X_SECRET]).text;

/**
 * Built-in `name` with `options`, judged by `judge` (whose client may know no secret) and
 * scrubbing with {@link X_SECRET} itself, evaluated on one case and output.
 */
export async function scrubbedOutcome(
  judge: JudgeContext,
  name: BuiltinEvaluatorName,
  options: Record<string, unknown>,
  testCase: Record<string, unknown>,
  output: unknown,
): Promise<Outcome> {
  const evaluator = create(name, options, { judge, scrub });
  try {
    return { metadata: (await evaluate(evaluator, testCase, output)).metadata };
  } catch (error) {
    const { message, metadata } = error as { message: string; metadata?: unknown };
    return { message, metadata };
  }
}
