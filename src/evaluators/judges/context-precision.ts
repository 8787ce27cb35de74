import type { Evaluation } from '../../types/index.ts';
import { defineBuiltin } from '../define.ts';
import { METADATA_LIST_LIMIT, compactList } from '../metadata.ts';
import {
  matchingOptionsSchema,
  contextsOf,
  matchItems,
  minSimilarityOf,
  referenceItemsOf,
  rounded,
  validateMatchingOptions,
} from './rag-shared.ts';

/**
 * Average precision of a ranked list: the mean, over the relevant ranks k, of the share of
 * relevant items among the first k. 0 when nothing is relevant (or nothing was retrieved).
 */
export function averagePrecision(relevant: readonly boolean[]): number {
  let hits = 0;
  let sum = 0;
  relevant.forEach((isRelevant, index) => {
    if (!isRelevant) return;
    hits++;
    sum += hits / (index + 1);
  });
  return hits === 0 ? 0 : sum / hits;
}

/**
 * `context-precision`: whether the retrieved contexts that matter come first. A context is
 * relevant when some reference item (a sentence of the reference, or an expected context)
 * occurs in it with similarity ≥ `minSimilarity`; the score is the average precision of the
 * retrieval order, so the same contexts score higher when the relevant ones rank first.
 * Deterministic and free: no model is called.
 */
export const contextPrecision = defineBuiltin({
  summary:
    'Average precision of the retrieved contexts, relevant meaning they contain part of the reference (no model call).',
  optionsSchema: matchingOptionsSchema(),
  validate: validateMatchingOptions,
  score(values, args): Evaluation {
    const minSimilarity = minSimilarityOf(values);
    const { source, items } = referenceItemsOf(values, args);
    const contexts = contextsOf(values, args);
    const { similarities, exact } = matchItems(items, contexts);
    const best = contexts.map((_, k) => Math.max(0, ...similarities.map((row) => row[k] ?? 0)));
    const relevant = best.map((similarity) => similarity >= minSimilarity);
    const relevantRanks = relevant.flatMap((isRelevant, k) => (isRelevant ? [k + 1] : []));
    return {
      score: averagePrecision(relevant),
      metadata: {
        contexts: contexts.length,
        relevant: relevantRanks.length,
        relevantRanks: compactList(relevantRanks),
        similarities: compactList(best.map(rounded), METADATA_LIST_LIMIT),
        [source === 'reference' ? 'referenceSentences' : 'expectedContexts']: items.length,
        minSimilarity,
        ...(!exact && { approximate: true }),
      },
    };
  },
});
