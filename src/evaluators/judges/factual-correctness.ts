import type { Evaluation } from '../../types/index.ts';
import { defineBuiltin } from '../define.ts';
import { compactList, type MetadataCut } from '../metadata.ts';
import { orTemplate } from '../option-schemas.ts';
import { optionalChoice } from '../options.ts';
import { JudgeCalls, requireChatJudge } from './calls.ts';
import { nonBlankReference } from './llm-context-precision.ts';
import { ANSWER_OPTION, answerOf, rounded, splitSentences } from './rag-shared.ts';
import {
  askVerdictsWith,
  numbered,
  type ItemVerdict,
  type VerdictQuestion,
} from './rag-verdicts.ts';

const NAME = 'factual-correctness';

/** What the score is: the harmonic mean of both directions (Ragas' default), or one of them. */
export const FACTUAL_MODES = ['f1', 'precision', 'recall'] as const;
type FactualMode = (typeof FACTUAL_MODES)[number];

/** Claims and reasons listed in metadata are cut short: there is one per sentence. */
const ITEM_TEXT_LIMIT = 200;

const SYSTEM = [
  'You check statements against a text, one verdict per numbered statement, in order.',
  'Give 1 when the text states the statement or makes it follow directly, 0 when the text contradicts it or does not say it.',
  'Judge only from the text: a statement that is true but absent from the text gets 0.',
  'Give the reason before the verdict.',
].join('\n');

/**
 * One direction: `claims` (sentences of one text) checked against `text`, the other (also how
 * `noise-sensitivity` checks the response against the reference).
 */
export function checkQuestion(
  claims: readonly string[],
  against: 'reference' | 'response',
  text: string,
): VerdictQuestion {
  const label = against === 'reference' ? 'reference answer' : 'response';
  const of = against === 'reference' ? 'the response' : 'the reference answer';
  return {
    system: SYSTEM,
    prompt: [
      `The text, the ${label}:\n<${against}>\n${text}\n</${against}>`,
      '',
      `Statements of ${of} to check against it:\n${numbered('statement', claims)}`,
    ].join('\n'),
    tool: against === 'reference' ? 'record_reference_support' : 'record_response_support',
    itemsDescription: `One verdict per statement, in statement order: exactly ${claims.length}.`,
    verdictDescription: `1 if the ${label} states the statement, else 0.`,
    count: claims.length,
  };
}

function listed(
  claims: readonly string[],
  verdicts: readonly ItemVerdict[],
  key: string,
  cut: MetadataCut,
) {
  return compactList(
    verdicts.map((v, i) => ({
      claim: cut(claims[i] ?? '', ITEM_TEXT_LIMIT),
      [key]: v.verdict === 1,
      reason: cut(v.reason, ITEM_TEXT_LIMIT),
    })),
  );
}

function failing(
  claims: readonly string[],
  verdicts: readonly ItemVerdict[],
  cut: MetadataCut,
): unknown[] {
  return compactList(
    claims.filter((_, i) => verdicts[i]?.verdict !== 1).map((claim) => cut(claim, ITEM_TEXT_LIMIT)),
  );
}

function share(verdicts: readonly ItemVerdict[]): number {
  return verdicts.filter((v) => v.verdict === 1).length / verdicts.length;
}

/** The mode a config names, for the plan; a template counts as the mode with the most calls. */
function modeAsWritten(options: Record<string, unknown>): FactualMode {
  const mode = options.mode;
  return mode === 'precision' || mode === 'recall' ? mode : 'f1';
}

/**
 * `factual-correctness` (Ragas' factual correctness): the response and the reference are split
 * into sentences, the claims (evalgate's split, so the denominators do not change from run to
 * run). Precision: the share of the response's claims the reference supports; recall: the share
 * of the reference's claims the response states; each direction is one call to a chat model.
 * The score is the F1 of both (default), or one of them with `mode`. A blank response scores 0
 * without a call (it states nothing, so nothing correct); a blank reference is an error.
 */
export const factualCorrectness = defineBuiltin({
  calls: 'chat',
  callsPerCase: (options) => (modeAsWritten(options) === 'f1' ? 2 : 1),
  summary:
    "F1 (or precision or recall) of the response's claims against the reference's, claim support judged by a model (LLM judge).",
  optionsSchema: {
    type: 'object',
    properties: {
      answer: ANSWER_OPTION,
      reference: {
        type: 'string',
        description:
          'The reference answer the response is checked against. Default: the case\'s "reference", else its "expected".',
      },
      mode: orTemplate(
        "f1 (default): harmonic mean of precision and recall; precision: share of the response's claims the reference supports; recall: share of the reference's claims the response states.",
        { enum: [...FACTUAL_MODES] },
      ),
    },
    additionalProperties: false,
  },
  prepare: (_options, context) => requireChatJudge(context, NAME),
  async score(values, args, judge, cut): Promise<Evaluation> {
    const mode = optionalChoice(values, 'mode', FACTUAL_MODES, 'f1');
    const reference = nonBlankReference(values, args.testCase);
    const answer = answerOf(values, args);
    const responseClaims = splitSentences(answer);
    const referenceClaims = splitSentences(reference);
    if (responseClaims.length === 0) {
      return {
        score: 0,
        metadata: { mode, precision: 0, recall: 0, responseClaims: 0, noClaims: true },
      };
    }
    const calls = new JudgeCalls(judge, args.signal, cut);
    // One direction after the other, not both at once: an error then carries the usage of every
    // call made, and the requests reach the server in a stable order.
    const supported =
      mode === 'recall'
        ? undefined
        : await askVerdictsWith(
            calls,
            judge.model,
            checkQuestion(responseClaims, 'reference', reference),
          );
    const stated =
      mode === 'precision'
        ? undefined
        : await askVerdictsWith(
            calls,
            judge.model,
            checkQuestion(referenceClaims, 'response', answer),
          );
    const precision = supported !== undefined ? share(supported) : undefined;
    const recall = stated !== undefined ? share(stated) : undefined;
    const score =
      mode === 'precision'
        ? (precision ?? 0)
        : mode === 'recall'
          ? (recall ?? 0)
          : f1(precision ?? 0, recall ?? 0);
    return {
      score,
      metadata: {
        mode,
        ...(precision !== undefined && { precision: rounded(precision) }),
        ...(recall !== undefined && { recall: rounded(recall) }),
        responseClaims: responseClaims.length,
        referenceClaims: referenceClaims.length,
        ...(supported !== undefined && {
          unsupported: failing(responseClaims, supported, cut),
          claims: listed(responseClaims, supported, 'supported', cut),
        }),
        ...(stated !== undefined && {
          missing: failing(referenceClaims, stated, cut),
          referenceStatements: listed(referenceClaims, stated, 'stated', cut),
        }),
      },
      usage: calls.usage,
    };
  },
});

/** The harmonic mean; 0 when both are 0. */
export function f1(precision: number, recall: number): number {
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}
