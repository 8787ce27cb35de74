import type { Evaluation } from '../../types/index.ts';
import { defineBuiltin } from '../define.ts';
import { compactList } from '../metadata.ts';
import { orTemplate } from '../option-schemas.ts';
import { optionalChoice } from '../options.ts';
import { JudgeCalls, requireChatJudge } from './calls.ts';
import { checkQuestion } from './factual-correctness.ts';
import { LLM_REFERENCE_OPTION, nonBlankReference } from './llm-context-precision.ts';
import {
  ANSWER_OPTION,
  CONTEXTS_OPTION,
  QUESTION_OPTION,
  answerOf,
  contextsOf,
  questionOf,
  splitSentences,
} from './rag-shared.ts';
import {
  askVerdictsWith,
  numbered,
  passagesAgainstReference,
  type ItemVerdict,
} from './rag-verdicts.ts';

const NAME = 'noise-sensitivity';

/** Which retrieved contexts count as the source of an error. */
export const NOISE_MODES = ['relevant', 'irrelevant'] as const;

/** Claims and reasons listed in metadata are cut short: there is one per sentence. */
const ITEM_TEXT_LIMIT = 200;

const RELEVANCE_SYSTEM = [
  'You review the passages a retrieval system returned, knowing the reference answer.',
  'For every passage, in order, give 1 if it states something the reference answer states, 0 if it states nothing of it.',
  'Give the reason before the verdict.',
].join('\n');

const SUPPORT_SYSTEM = [
  'You check whether passages state what a response claims, one verdict per numbered claim, in order.',
  'Give 1 when the passages state the claim or make it follow directly, 0 otherwise, whether or not the claim is true.',
  'Give the reason before the verdict.',
].join('\n');

/** Which of `claims` the `passages` state, as one verdict each. */
function supportQuestion(claims: readonly string[], passages: readonly string[]) {
  return {
    system: SUPPORT_SYSTEM,
    prompt: [
      `Passages:\n${numbered('passage', passages)}`,
      '',
      `Claims of the response:\n${numbered('claim', claims)}`,
    ].join('\n'),
    tool: 'record_passage_support',
    itemsDescription: `One verdict per claim, in claim order: exactly ${claims.length}.`,
    verdictDescription: '1 if the passages state the claim, else 0.',
    count: claims.length,
  };
}

function isYes(verdict: ItemVerdict | undefined): boolean {
  return verdict?.verdict === 1;
}

/**
 * `noise-sensitivity` (Ragas' noise sensitivity): how often the response says something wrong
 * that it took from what was retrieved. The response is split into sentences (its claims). A
 * claim is incorrect when the reference does not support it (call 1); a context is relevant when
 * it states something of the reference (call 2); the score is the share of the response's
 * claims that are incorrect yet stated by a relevant context (call 3; `mode: relevant`, the
 * default) or stated by an irrelevant context and by no relevant one (`mode: irrelevant`, calls
 * 3 and 4). Lower is better, hence the default threshold `lte: 0.5`. Calls are skipped once the
 * score is known: no claims, no contexts, no incorrect claim or no context of the kind asked
 * for all score 0.
 */
export const noiseSensitivity = defineBuiltin({
  calls: 'chat',
  // A templated mode counts as the one with more calls.
  callsPerCase: (options) => (options.mode === undefined || options.mode === 'relevant' ? 3 : 4),
  defaultThreshold: { lte: 0.5 },
  summary:
    "Share of the response's claims that are wrong yet stated by a retrieved context; lower is better (LLM judge).",
  optionsSchema: {
    type: 'object',
    properties: {
      answer: ANSWER_OPTION,
      contexts: CONTEXTS_OPTION,
      reference: LLM_REFERENCE_OPTION,
      question: QUESTION_OPTION,
      mode: orTemplate(
        'relevant (default): count wrong claims stated by a context that is relevant to the reference; irrelevant: by an irrelevant context and no relevant one.',
        { enum: [...NOISE_MODES] },
      ),
    },
    additionalProperties: false,
  },
  prepare: (_options, context) => requireChatJudge(context, NAME),
  async score(values, args, judge, cut): Promise<Evaluation> {
    const mode = optionalChoice(values, 'mode', NOISE_MODES, 'relevant');
    const contexts = contextsOf(values, args);
    const reference = nonBlankReference(values, args.testCase);
    const question = questionOf(values, args, false);
    const claims = splitSentences(answerOf(values, args));
    const calls = new JudgeCalls(judge, args.signal, cut);
    const zero = (extra: Record<string, unknown>): Evaluation => ({
      score: 0,
      metadata: { mode, claims: claims.length, noisy: 0, ...extra },
      ...(calls.usage.calls + calls.usage.cacheHits > 0 && { usage: calls.usage }),
    });
    if (claims.length === 0 || contexts.length === 0) return zero({ contexts: contexts.length });

    const correct = await askVerdictsWith(
      calls,
      judge.model,
      checkQuestion(claims, 'reference', reference),
    );
    const incorrect = claims.filter((_, i) => !isYes(correct[i]));
    const seen = { contexts: contexts.length, incorrect: incorrect.length };
    if (incorrect.length === 0) return zero(seen);

    const relevance = await askVerdictsWith(calls, judge.model, {
      system: RELEVANCE_SYSTEM,
      prompt: passagesAgainstReference(question, reference, contexts),
      tool: 'record_relevance',
      itemsDescription: `One verdict per passage, in passage order: exactly ${contexts.length}.`,
      verdictDescription: '1 if the passage states something of the reference answer, else 0.',
      count: contexts.length,
    });
    const relevant = contexts.filter((_, k) => isYes(relevance[k]));
    const irrelevant = contexts.filter((_, k) => !isYes(relevance[k]));
    const relevantRanks = relevance.flatMap((v, k) => (v.verdict === 1 ? [k + 1] : []));
    const known = { ...seen, relevantRanks: compactList(relevantRanks) };

    // Which incorrect claims a relevant context states; in irrelevant mode, the rest are then
    // checked against the irrelevant contexts.
    let candidates = incorrect;
    let noisy: { claim: string; reason: string }[] = [];
    if (relevant.length > 0) {
      const stated = await askVerdictsWith(
        calls,
        judge.model,
        supportQuestion(incorrect, relevant),
      );
      noisy = incorrect.flatMap((claim, i) =>
        isYes(stated[i]) ? [{ claim, reason: stated[i]?.reason ?? '' }] : [],
      );
      candidates = incorrect.filter((_, i) => !isYes(stated[i]));
    }
    if (mode === 'irrelevant') {
      noisy = [];
      if (irrelevant.length > 0 && candidates.length > 0) {
        const stated = await askVerdictsWith(
          calls,
          judge.model,
          supportQuestion(candidates, irrelevant),
        );
        noisy = candidates.flatMap((claim, i) =>
          isYes(stated[i]) ? [{ claim, reason: stated[i]?.reason ?? '' }] : [],
        );
      }
    }
    return {
      score: noisy.length / claims.length,
      metadata: {
        mode,
        claims: claims.length,
        noisy: noisy.length,
        ...known,
        noisyClaims: compactList(
          noisy.map((n) => ({
            claim: cut(n.claim, ITEM_TEXT_LIMIT),
            reason: cut(n.reason, ITEM_TEXT_LIMIT),
          })),
        ),
        incorrectClaims: compactList(incorrect.map((c) => cut(c, ITEM_TEXT_LIMIT))),
      },
      usage: calls.usage,
    };
  },
});
