import type { Evaluation } from '../types/index.ts';
import { METADATA_LIST_LIMIT, compactList } from './metadata.ts';
import { ACTUAL_OPTION, IGNORE_CASE_OPTION, orTemplate } from './option-schemas.ts';
import { actualOf, optionalBoolean, requiredStringArray, textOf } from './options.ts';
import { defineBuiltin } from './define.ts';

/** `has-all-substrings`: every one of `substrings` occurs in the text under test. */
export const hasAllSubstrings = defineBuiltin({
  summary: 'The text under test contains every one of `substrings`.',
  optionsSchema: {
    type: 'object',
    properties: {
      substrings: orTemplate(
        'The strings that must all occur. An empty list always passes. A template such as {{case.keywords}} must yield an array of strings.',
        { type: 'array', items: { type: 'string' } },
      ),
      actual: ACTUAL_OPTION,
      ignoreCase: IGNORE_CASE_OPTION,
    },
    required: ['substrings'],
    additionalProperties: false,
  },
  defaultThreshold: { gte: 1 },
  score(values, args, _, cut): Evaluation {
    const substrings = requiredStringArray(values, 'substrings');
    const ignoreCase = optionalBoolean(values, 'ignoreCase', false);
    const text = textOf(actualOf(values, args));
    const haystack = ignoreCase ? text.toLowerCase() : text;
    const missing = substrings.filter(
      (needle) => !haystack.includes(ignoreCase ? needle.toLowerCase() : needle),
    );
    if (missing.length === 0) return { score: 1 };
    return {
      score: 0,
      metadata: { missingSubstrings: compactList(missing, METADATA_LIST_LIMIT, cut) },
    };
  },
});
