import type { Evaluation } from '../../types/index.ts';
import { defineBuiltin } from '../define.ts';
import { METADATA_LIST_LIMIT } from '../metadata.ts';
import { JudgeCalls, requireChatJudge } from './calls.ts';
import {
  ANSWER_OPTION,
  CONTEXTS_OPTION,
  QUESTION_OPTION,
  answerOf,
  contextsOf,
  formatContexts,
  questionOf,
} from './rag-shared.ts';

const NAME = 'faithfulness';
const TOOL = 'record_claims';

/** Claim texts and reasons kept in metadata; twenty claims of this size stay readable. */
const CLAIM_TEXT_LIMIT = 300;

const SYSTEM = [
  'You audit answers produced by a retrieval-augmented assistant against the passages it retrieved.',
  'First break the answer into its factual claims: short statements that each assert one thing and can be read on their own (replace pronouns by what they refer to).',
  'Leave out parts that assert nothing, such as greetings, questions back to the user, or statements that the information is unavailable.',
  'Then decide for each claim whether the passages state it or make it follow directly. Judge only from the passages: a claim that is true but absent from them is not supported, and so is one the passages contradict.',
  `Report through ${TOOL}, giving the reason before the verdict for every claim.`,
].join('\n');

const PARAMETERS = {
  type: 'object',
  properties: {
    claims: {
      type: 'array',
      description: 'Every factual claim of the answer, in the order they appear.',
      items: {
        type: 'object',
        properties: {
          claim: { type: 'string', description: 'The claim as a self-contained sentence.' },
          reason: {
            type: 'string',
            description: 'Which passage supports it, or why none does, in one sentence.',
          },
          supported: { type: 'boolean', description: 'Whether the passages support the claim.' },
        },
        required: ['claim', 'reason', 'supported'],
        additionalProperties: false,
      },
    },
  },
  required: ['claims'],
  additionalProperties: false,
} as const;

interface Claim {
  claim: string;
  reason: string;
  supported: boolean;
}

/** The judge's claims, or the first way in which they break the requested shape. */
function readClaims(args: Record<string, unknown>): Claim[] | string {
  const { claims } = args;
  if (!Array.isArray(claims)) return '"claims" is not an array';
  const read: Claim[] = [];
  for (const [index, item] of claims.entries()) {
    if (typeof item !== 'object' || item === null) return `claims[${index}] is not an object`;
    const { claim, reason, supported } = item as Record<string, unknown>;
    if (typeof claim !== 'string') return `claims[${index}].claim is not a string`;
    if (typeof supported !== 'boolean') return `claims[${index}].supported is not a boolean`;
    read.push({ claim, supported, reason: typeof reason === 'string' ? reason : '' });
  }
  return read;
}

function prompt(question: string | undefined, contexts: readonly string[], answer: string): string {
  return [
    ...(question !== undefined ? [`Question:\n<question>\n${question}\n</question>`, ''] : []),
    `Retrieved passages:\n${formatContexts(contexts)}`,
    '',
    `Answer to audit:\n<answer>\n${answer}\n</answer>`,
  ].join('\n');
}

/**
 * `faithfulness`: the share of the answer's claims that the retrieved contexts support, as
 * judged by a chat model in one forced tool call. An answer that makes no claim (empty, or
 * only "I don't know") scores 1: it asserts nothing unsupported, and whether it is useful is
 * `answer-relevancy`'s question. No default threshold: the score is a share.
 */
export const faithfulness = defineBuiltin({
  calls: 'chat',
  summary: "Share of the answer's claims that the retrieved contexts support (LLM judge).",
  optionsSchema: {
    type: 'object',
    properties: {
      answer: ANSWER_OPTION,
      contexts: CONTEXTS_OPTION,
      question: QUESTION_OPTION,
    },
    additionalProperties: false,
  },
  prepare: (_options, context) => requireChatJudge(context, NAME),
  async score(values, args, judge, cut): Promise<Evaluation> {
    const answer = answerOf(values, args);
    const contexts = contextsOf(values, args);
    const question = questionOf(values, args, false);
    if (answer.trim() === '') {
      return { score: 1, metadata: { supported: 0, total: 0, noClaims: true, claims: [] } };
    }
    const calls = new JudgeCalls(judge, args.signal, cut);
    const claims = await calls.askRead(
      judge.model,
      {
        system: SYSTEM,
        prompt: prompt(question, contexts, answer),
        tool: TOOL,
        description: 'Record the claims of the answer and whether the passages support each.',
        parameters: PARAMETERS,
      },
      readClaims,
    );
    const supported = claims.filter((c) => c.supported).length;
    const listed = claims.slice(0, METADATA_LIST_LIMIT).map((c) => ({
      claim: cut(c.claim, CLAIM_TEXT_LIMIT),
      supported: c.supported,
      reason: cut(c.reason, CLAIM_TEXT_LIMIT),
    }));
    return {
      score: claims.length === 0 ? 1 : supported / claims.length,
      metadata: {
        supported,
        total: claims.length,
        ...(claims.length === 0 && { noClaims: true }),
        claims: listed,
        ...(claims.length > listed.length && { claimsOmitted: claims.length - listed.length }),
      },
      usage: calls.usage,
    };
  },
});
