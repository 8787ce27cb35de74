import type { Evaluation } from '../../types/index.ts';
import { defineBuiltin } from '../define.ts';
import { compactList } from '../metadata.ts';
import { requireChatJudge } from './calls.ts';
import { LLM_CONTEXT_OPTIONS_SCHEMA, nonBlankReference } from './llm-context-precision.ts';
import { contextsOf, questionOf, splitSentences } from './rag-shared.ts';
import { askVerdicts, numbered } from './rag-verdicts.ts';

const NAME = 'llm-context-recall';

/** Statements and reasons listed in metadata are cut short: there is one per sentence. */
const ITEM_TEXT_LIMIT = 200;

const SYSTEM = [
  'You check whether the passages a retrieval system returned hold what a reference answer states.',
  'The reference answer is given as numbered statements. For every statement, in order, decide whether it can be attributed to the passages: 1 if the passages state it or make it follow directly, 0 otherwise.',
  'Judge only from the passages: a statement that is true but absent from them is not attributable.',
  'Give the reason before the verdict.',
].join('\n');

/**
 * `llm-context-recall` (Ragas' LLM context recall): the reference is split into sentences, a
 * chat model says of each whether the retrieved contexts support it (1/0), and the score is the
 * attributed share. Splitting here rather than by the model keeps the statements, and so the
 * score's denominator, the same from run to run. No contexts score 0 without a call.
 */
export const llmContextRecall = defineBuiltin({
  calls: 'chat',
  summary:
    "Share of the reference's sentences a judge model attributes to the retrieved contexts (LLM judge).",
  optionsSchema: LLM_CONTEXT_OPTIONS_SCHEMA,
  prepare: (_options, context) => requireChatJudge(context, NAME),
  async score(values, args, judge, cut): Promise<Evaluation> {
    const contexts = contextsOf(values, args);
    const statements = splitSentences(nonBlankReference(values, args.testCase));
    const question = questionOf(values, args, false);
    if (contexts.length === 0) {
      return {
        score: 0,
        metadata: {
          attributed: 0,
          total: statements.length,
          contexts: 0,
          notAttributed: compactList(statements.map((s) => cut(s, ITEM_TEXT_LIMIT))),
        },
      };
    }
    const { verdicts, calls } = await askVerdicts(
      judge,
      args.signal,
      {
        system: SYSTEM,
        prompt: [
          ...(question !== undefined
            ? [`Question:\n<question>\n${question}\n</question>`, '']
            : []),
          `Retrieved passages:\n${numbered('passage', contexts)}`,
          '',
          `Statements of the reference answer:\n${numbered('statement', statements)}`,
        ].join('\n'),
        tool: 'record_attribution',
        itemsDescription: `One verdict per statement, in statement order: exactly ${statements.length}.`,
        verdictDescription: '1 if the passages support the statement, else 0.',
        count: statements.length,
      },
      cut,
    );
    const attributed = verdicts.map((v) => v.verdict === 1);
    const found = attributed.filter(Boolean).length;
    return {
      score: found / statements.length,
      metadata: {
        attributed: found,
        total: statements.length,
        contexts: contexts.length,
        notAttributed: compactList(
          statements.filter((_, i) => !attributed[i]).map((s) => cut(s, ITEM_TEXT_LIMIT)),
        ),
        statements: compactList(
          verdicts.map((v, i) => ({
            statement: cut(statements[i] ?? '', ITEM_TEXT_LIMIT),
            attributed: v.verdict === 1,
            reason: cut(v.reason, ITEM_TEXT_LIMIT),
          })),
        ),
      },
      usage: calls.usage,
    };
  },
});
