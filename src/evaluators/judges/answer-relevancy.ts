import type { Evaluation } from '../../types/index.ts';
import { defineBuiltin } from '../define.ts';
import { JUDGE_REASON_LIMIT } from '../metadata.ts';
import { JudgeCalls, requireChatJudge } from './calls.ts';
import { ANSWER_OPTION, QUESTION_OPTION, answerOf, questionOf } from './rag-shared.ts';

const NAME = 'answer-relevancy';

/** The verdicts offered to the judge, with their scores. */
export const RELEVANCY_SCORES = {
  'fully relevant': 1,
  'partially relevant': 0.5,
  'not relevant': 0,
} as const;

const CHOICES = Object.keys(RELEVANCY_SCORES) as (keyof typeof RELEVANCY_SCORES)[];

const SYSTEM = [
  'You judge whether an answer addresses the question it was given. Correctness is not your concern, only relevance.',
  '"fully relevant": the answer responds to everything the question asks, without drifting to other topics.',
  '"partially relevant": it responds to part of the question, stays vague, or buries the response in unrelated material.',
  '"not relevant": it does not respond to the question, including refusals, evasions and answers to a different question.',
].join('\n');

/**
 * `answer-relevancy`: whether the answer addresses the question, as one verdict of a chat model
 * among fully / partially / not relevant, scored 1 / 0.5 / 0. A single graded verdict is
 * preferred to generating questions back from the answer and comparing embeddings: one call,
 * one model, and a reason that explains the score. An empty answer scores 0 without a call.
 */
export const answerRelevancy = defineBuiltin({
  calls: 'chat',
  summary: 'Whether the answer addresses the question: fully 1, partially 0.5, not 0 (LLM judge).',
  optionsSchema: {
    type: 'object',
    properties: {
      answer: ANSWER_OPTION,
      question: QUESTION_OPTION,
    },
    additionalProperties: false,
  },
  prepare: (_options, context) => requireChatJudge(context, NAME),
  async score(values, args, judge, cut): Promise<Evaluation> {
    const answer = answerOf(values, args);
    const question = questionOf(values, args, true) ?? '';
    if (answer.trim() === '') {
      return { score: 0, metadata: { verdict: 'not relevant', reason: 'the answer is empty' } };
    }
    const calls = new JudgeCalls(judge, args.signal, cut);
    const { choice, reason } = await calls.choose(judge.model, {
      system: SYSTEM,
      prompt: `Question:\n<question>\n${question}\n</question>\n\nAnswer:\n<answer>\n${answer}\n</answer>`,
      choices: CHOICES,
    });
    const verdict = choice as keyof typeof RELEVANCY_SCORES;
    return {
      score: RELEVANCY_SCORES[verdict],
      metadata: { verdict, reason: cut(reason, JUDGE_REASON_LIMIT) },
      usage: calls.usage,
    };
  },
});
