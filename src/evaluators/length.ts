import type { Evaluation } from '../types/index.ts';
import { ACTUAL_OPTION, orTemplate } from './option-schemas.ts';
import { actualOf, OptionError, optionalChoice, optionalCount, textOf } from './options.ts';
import { defineBuiltin } from './define.ts';

const UNITS = ['chars', 'words'] as const;

/**
 * `length`: the text under test is between `min` and `max` (inclusive) characters or words.
 * Characters are Unicode code points (an emoji is 1, not 2); words are runs of non-whitespace.
 */
export const length = defineBuiltin({
  summary: 'The length of the text under test (characters or words) is within `min`..`max`.',
  optionsSchema: {
    type: 'object',
    properties: {
      min: orTemplate('Smallest length allowed (inclusive).', { type: 'integer', minimum: 0 }),
      max: orTemplate('Largest length allowed (inclusive).', { type: 'integer', minimum: 0 }),
      unit: orTemplate(
        'chars: Unicode code points (default); words: runs of non-whitespace characters.',
        { enum: [...UNITS] },
      ),
      actual: ACTUAL_OPTION,
    },
    additionalProperties: false,
  },
  defaultThreshold: { gte: 1 },
  validate(options) {
    const { min, max } = options;
    if (min === undefined && max === undefined) {
      return [{ path: 'min', message: 'give "min", "max" or both' }];
    }
    // Templated bounds are checked per case, once they have values.
    if (typeof min === 'number' && typeof max === 'number' && min > max) {
      return [{ path: 'min', message: `"min" (${min}) is greater than "max" (${max})` }];
    }
    return [];
  },
  score(values, args): Evaluation {
    const min = optionalCount(values, 'min');
    const max = optionalCount(values, 'max');
    const unit = optionalChoice(values, 'unit', UNITS, 'chars');
    if (min === undefined && max === undefined) {
      throw new OptionError('evaluator.option', 'give option "min", "max" or both');
    }
    if (min !== undefined && max !== undefined && min > max) {
      throw new OptionError(
        'evaluator.option',
        `option "min" (${min}) is greater than option "max" (${max})`,
      );
    }
    const text = textOf(actualOf(values, args));
    const size = unit === 'words' ? countWords(text) : countCodePoints(text);
    const within = (min === undefined || size >= min) && (max === undefined || size <= max);
    return {
      score: within ? 1 : 0,
      metadata: { length: size, unit, min: min ?? null, max: max ?? null },
    };
  },
});

/** Unicode code points: `'😀'.length` is 2 but it is one character to a reader. */
function countCodePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A high surrogate followed by a low one is a single code point: skip the low half.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

function countWords(text: string): number {
  let count = 0;
  for (const _ of text.matchAll(/\S+/g)) count++;
  return count;
}
