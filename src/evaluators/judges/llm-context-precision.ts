import type { Evaluation } from '../../types/index.ts';
import { defineBuiltin } from '../define.ts';
import { compactList } from '../metadata.ts';
import { OptionError } from '../options.ts';
import { requireChatJudge } from './calls.ts';
import { averagePrecision } from './context-precision.ts';
import {
  CONTEXTS_OPTION,
  QUESTION_OPTION,
  contextsOf,
  questionOf,
  referenceText,
} from './rag-shared.ts';
import { askVerdicts, passagesAgainstReference } from './rag-verdicts.ts';

const NAME = 'llm-context-precision';

/** Reasons are cut shorter than usual: there is one per passage. */
const REASON_LIMIT = 200;

const SYSTEM = [
  'You review the passages a retrieval system returned for a question, knowing the reference answer.',
  'For every passage, in order, decide whether it was useful to arrive at the reference answer: 1 if it states something the reference answer relies on, 0 if it is off topic, only loosely related, or adds nothing the answer needs.',
  'Judge each passage on its own; do not favour earlier ones.',
  'Give the reason before the verdict.',
].join('\n');

/** The reference answer as these metrics take it (no expectedContexts: a model reads it whole). */
export const LLM_REFERENCE_OPTION = {
  type: 'string',
  description:
    'The reference answer the retrieval should support. Default: the case\'s "reference", else its "expected".',
} as const;

/** The options of the judged context metrics (`llm-context-precision`, `llm-context-recall`). */
export const LLM_CONTEXT_OPTIONS_SCHEMA = {
  type: 'object',
  properties: {
    contexts: CONTEXTS_OPTION,
    reference: LLM_REFERENCE_OPTION,
    question: QUESTION_OPTION,
  },
  additionalProperties: false,
} as const;

/** A reference that is blank gives nothing to judge against: an error, not a 0. */
export function nonBlankReference(
  values: Record<string, unknown>,
  testCase: Record<string, unknown>,
): string {
  const reference = referenceText(values, testCase);
  if (reference.trim() === '') {
    throw new OptionError(
      'evaluator.option',
      'the reference is blank: nothing to judge the contexts against',
    );
  }
  return reference;
}

/**
 * `llm-context-precision` (Ragas' LLM context precision with reference): a chat model says of
 * each retrieved context whether it was useful to arrive at the reference (1/0), and the score
 * is the average precision of those verdicts in retrieval order, so the same contexts score
 * higher when the useful ones come first. No contexts score 0 without a call.
 */
export const llmContextPrecision = defineBuiltin({
  calls: 'chat',
  summary:
    'Average precision of the retrieved contexts, useful meaning a judge model finds them needed for the reference (LLM judge).',
  optionsSchema: LLM_CONTEXT_OPTIONS_SCHEMA,
  prepare: (_options, context) => requireChatJudge(context, NAME),
  async score(values, args, judge, cut): Promise<Evaluation> {
    const contexts = contextsOf(values, args);
    const reference = nonBlankReference(values, args.testCase);
    const question = questionOf(values, args, false);
    if (contexts.length === 0) {
      return { score: 0, metadata: { contexts: 0, useful: 0, usefulRanks: [], verdicts: [] } };
    }
    const { verdicts, calls } = await askVerdicts(
      judge,
      args.signal,
      {
        system: SYSTEM,
        prompt: passagesAgainstReference(question, reference, contexts),
        tool: 'record_usefulness',
        itemsDescription: `One verdict per passage, in passage order: exactly ${contexts.length}.`,
        verdictDescription:
          '1 if the passage was useful to arrive at the reference answer, else 0.',
        count: contexts.length,
      },
      cut,
    );
    const useful = verdicts.map((v) => v.verdict === 1);
    const usefulRanks = useful.flatMap((isUseful, k) => (isUseful ? [k + 1] : []));
    return {
      score: averagePrecision(useful),
      metadata: {
        contexts: contexts.length,
        useful: usefulRanks.length,
        usefulRanks: compactList(usefulRanks),
        verdicts: compactList(
          verdicts.map((v, k) => ({
            context: k + 1,
            useful: v.verdict === 1,
            reason: cut(v.reason, REASON_LIMIT),
          })),
        ),
      },
      usage: calls.usage,
    };
  },
});
