import type { Evaluation } from '../../types/index.ts';
import { defineBuiltin } from '../define.ts';
import { compactList } from '../metadata.ts';
import {
  matchingOptionsSchema,
  contextsOf,
  matchItems,
  minSimilarityOf,
  referenceItemsOf,
  rounded,
  validateMatchingOptions,
} from './rag-shared.ts';

/** Items listed in metadata are cut shorter than usual: there may be twenty of them. */
const ITEM_TEXT_LIMIT = 200;

/**
 * `context-recall`: the share of reference items (sentences of the reference, or expected
 * contexts) that occur, with similarity ≥ `minSimilarity`, in at least one retrieved context.
 * Deterministic and free: no model is called.
 */
export const contextRecall = defineBuiltin({
  summary:
    'Share of the reference (its sentences, or expected contexts) found in the retrieved contexts (no model call).',
  optionsSchema: matchingOptionsSchema(),
  validate: validateMatchingOptions,
  score(values, args, _, cut): Evaluation {
    const minSimilarity = minSimilarityOf(values);
    const { items } = referenceItemsOf(values, args);
    const contexts = contextsOf(values, args);
    const { similarities, exact } = matchItems(items, contexts);
    const matches = items.map((item, i) => {
      const row = similarities[i] ?? [];
      const similarity = Math.max(0, ...row);
      const found = contexts.length > 0 && similarity >= minSimilarity;
      // The 1-based rank of the context that holds the item best; null when it is nowhere.
      return { item, found, similarity, context: found ? row.indexOf(similarity) + 1 : null };
    });
    const found = matches.filter((match) => match.found).length;
    return {
      score: found / items.length,
      metadata: {
        found,
        total: items.length,
        items: compactList(
          matches.map(({ item, found: isFound, similarity, context }) => ({
            item: cut(item, ITEM_TEXT_LIMIT),
            found: isFound,
            similarity: rounded(similarity),
            context,
          })),
        ),
        contexts: contexts.length,
        minSimilarity,
        ...(!exact && { approximate: true }),
      },
    };
  },
});
