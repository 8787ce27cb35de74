import type { Evaluation } from '../types/index.ts';
import { METADATA_LIST_LIMIT, compactList } from './metadata.ts';
import { ACTUAL_OPTION, IGNORE_CASE_OPTION, orTemplate } from './option-schemas.ts';
import { actualOf, optionalBoolean, requiredStringArray, textOf } from './options.ts';
import { defineBuiltin } from './define.ts';

/** `contains`: at least one of `values` occurs in the text under test. */
export const contains = defineBuiltin({
  summary: 'The text under test contains at least one of `values`.',
  optionsSchema: {
    type: 'object',
    properties: {
      values: orTemplate(
        'The candidate strings; any one of them occurring passes. An empty list never passes.',
        { type: 'array', items: { type: 'string' }, minItems: 1 },
      ),
      actual: ACTUAL_OPTION,
      ignoreCase: IGNORE_CASE_OPTION,
    },
    required: ['values'],
    additionalProperties: false,
  },
  defaultThreshold: { gte: 1 },
  score(values, args, _, cut): Evaluation {
    const candidates = requiredStringArray(values, 'values');
    const ignoreCase = optionalBoolean(values, 'ignoreCase', false);
    const text = textOf(actualOf(values, args));
    const haystack = ignoreCase ? text.toLowerCase() : text;
    const matched = candidates.find((value) =>
      haystack.includes(ignoreCase ? value.toLowerCase() : value),
    );
    if (matched !== undefined) return { score: 1, metadata: { matched: cut(matched) } };
    return {
      score: 0,
      metadata: { expectedAnyOf: compactList(candidates, METADATA_LIST_LIMIT, cut) },
    };
  },
});
