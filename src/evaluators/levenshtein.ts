import type { Evaluation } from '../types/index.ts';
import { ACTUAL_OPTION, IGNORE_CASE_OPTION } from './option-schemas.ts';
import { actualOf, optionalBoolean, optionalCount, requiredString, textOf } from './options.ts';
import { defineBuiltin } from './define.ts';
import { editDistance } from '../shared/edit-distance.ts';
import { withoutNoise } from '../shared/float-noise.ts';

/**
 * `levenshtein`: similarity to `expected` as `1 − distance / longer length`, counting Unicode
 * code points (1 for two empty strings). No default threshold: the score is a gradient.
 */
export const levenshtein = defineBuiltin({
  summary: 'Similarity to `expected`: 1 − edit distance / length of the longer text.',
  optionsSchema: {
    type: 'object',
    properties: {
      expected: { type: 'string', description: 'The reference text.' },
      actual: ACTUAL_OPTION,
      ignoreCase: IGNORE_CASE_OPTION,
      maxDistance: {
        description:
          'Passes when at most this many edits apart (sets the threshold per case; a `threshold:` on the evaluator wins).',
        anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string' }],
      },
    },
    required: ['expected'],
    additionalProperties: false,
  },
  score(values, args, _, cut): Evaluation {
    const ignoreCase = optionalBoolean(values, 'ignoreCase', false);
    const expected = requiredString(values, 'expected');
    const actual = textOf(actualOf(values, args));
    // Compared lowercased when asked; the metadata still shows the texts as they were.
    const left = ignoreCase ? expected.toLowerCase() : expected;
    const right = ignoreCase ? actual.toLowerCase() : actual;
    const maxDistance = optionalCount(values, 'maxDistance');
    const { distance, exact } =
      left === right ? { distance: 0, exact: true } : editDistance(left, right);
    const maxLength = Math.max(codePointCount(left), codePointCount(right));
    // With maxDistance, "at most N edits" is the similarity's threshold for this pair: the two
    // are the same test, since both sides are divided by the same length. Both are rounded as
    // every value evalgate derives is: 1 − 9/10 computes as 0.09999999999999998, which would
    // fail a `gte: 0.1` it equals (see shared/float-noise.ts).
    const threshold =
      maxDistance === undefined
        ? undefined
        : { gte: maxLength === 0 ? 1 : withoutNoise(1 - maxDistance / maxLength) };
    if (distance === 0) {
      return {
        score: 1,
        metadata: { distance: 0, ...(maxDistance !== undefined && { maxDistance }) },
        ...(threshold && { threshold }),
      };
    }
    return {
      score: withoutNoise(1 - distance / maxLength),
      ...(threshold && { threshold }),
      metadata: {
        distance,
        ...(maxDistance !== undefined && { maxDistance }),
        maxLength,
        ...(!exact && { approximate: true }),
        expected: cut(expected),
        actual: cut(actual),
      },
    };
  },
});

function codePointCount(text: string): number {
  let count = 0;
  for (const _char of text) count++;
  return count;
}
