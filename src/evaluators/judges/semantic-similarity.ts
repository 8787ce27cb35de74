import type { Evaluation } from '../../types/index.ts';
import { defineBuiltin } from '../define.ts';
import { ACTUAL_OPTION } from '../option-schemas.ts';
import { actualOf, requiredString, textOf } from '../options.ts';
import { JudgeCalls, requireEmbeddingJudge } from './calls.ts';

const NAME = 'semantic-similarity';

/**
 * The cosine of the angle between `a` and `b`, or an explanation of why there is none (a zero
 * vector has no direction; vectors of different lengths come from different models).
 */
export function cosineSimilarity(
  a: readonly number[],
  b: readonly number[],
): { ok: true; cosine: number } | { ok: false; reason: string } {
  if (a.length !== b.length) {
    return { ok: false, reason: `the embeddings differ in length (${a.length} and ${b.length})` };
  }
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  if (normA === 0 || normB === 0) return { ok: false, reason: 'an embedding is a zero vector' };
  const cosine = dot / Math.sqrt(normA * normB);
  if (!Number.isFinite(cosine)) return { ok: false, reason: 'the embeddings overflow' };
  // Rounding can put parallel vectors a hair outside [-1, 1].
  return { ok: true, cosine: Math.min(1, Math.max(-1, cosine)) };
}

/**
 * `semantic-similarity`: the cosine similarity of the embeddings of the text under test and
 * `expected`, with negative cosines scored 0 (opposed meaning is as far off as unrelated for a
 * gate). No default threshold: what counts as close depends on the embeddings model.
 */
export const semanticSimilarity = defineBuiltin({
  calls: 'embeddings',
  summary:
    'Cosine similarity of the embeddings of the text under test and `expected` (negative → 0).',
  optionsSchema: {
    type: 'object',
    properties: {
      expected: { type: 'string', description: 'The reference text.' },
      actual: ACTUAL_OPTION,
    },
    required: ['expected'],
    additionalProperties: false,
  },
  prepare: (_options, context) => requireEmbeddingJudge(context, NAME),
  async score(values, args, judge, cut): Promise<Evaluation> {
    const expected = requiredString(values, 'expected');
    const actual = textOf(actualOf(values, args));
    // Equal texts have equal embeddings; an empty text is one most embeddings APIs refuse.
    if (actual === expected) return { score: 1, metadata: { cosine: 1, identical: true } };
    if (actual.trim() === '' || expected.trim() === '') {
      return {
        score: 0,
        metadata: { emptyText: actual.trim() === '' ? 'actual' : 'expected' },
      };
    }
    // The built-in's cut: an embeddings error quoting the text is scrubbed before it is cut.
    const calls = new JudgeCalls(judge, args.signal, cut);
    const [left, right] = await calls.embed(judge.embeddingModel, [actual, expected]);
    const result = cosineSimilarity(left ?? [], right ?? []);
    if (!result.ok) {
      throw calls.error(`${NAME}: ${result.reason}`, {
        dimensions: [left?.length ?? 0, right?.length ?? 0],
      });
    }
    return {
      score: Math.max(0, result.cosine),
      metadata: { cosine: result.cosine },
      usage: calls.usage,
    };
  },
});
