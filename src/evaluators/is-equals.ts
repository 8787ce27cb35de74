import type { Evaluation } from '../types/index.ts';
import { compactValue } from './metadata.ts';
import { ACTUAL_OPTION, IGNORE_CASE_OPTION, orTemplate } from './option-schemas.ts';
import { actualOf, optionalBoolean, textOf } from './options.ts';
import { defineBuiltin } from './define.ts';
import { isPlainObject } from '../shared/is-record.ts';

interface StringRules {
  ignoreCase: boolean;
  trim: boolean;
}

/**
 * `is-equals`: the value under test equals `expected`. Objects and arrays compare structurally
 * (key order does not matter, array order does); `ignoreCase` and `trim` apply to every string
 * compared, nested ones included. When exactly one side is a string, the other side is compared
 * as its JSON text, so a CSV cell `"42"` equals the number `42`.
 */
export const isEquals = defineBuiltin({
  summary: 'The value under test equals `expected` (deep equality for objects and arrays).',
  optionsSchema: {
    type: 'object',
    properties: {
      expected: {
        description:
          'The value to compare with; any type. Objects and arrays compare structurally, ignoring key order.',
      },
      actual: ACTUAL_OPTION,
      ignoreCase: IGNORE_CASE_OPTION,
      trim: orTemplate(
        'Ignore leading and trailing whitespace of the strings compared. Default: false.',
        { type: 'boolean' },
      ),
    },
    required: ['expected'],
    additionalProperties: false,
  },
  defaultThreshold: { gte: 1 },
  score(values, args, _, cut): Evaluation {
    const rules: StringRules = {
      ignoreCase: optionalBoolean(values, 'ignoreCase', false),
      trim: optionalBoolean(values, 'trim', false),
    };
    const expected = values.expected;
    const actual = actualOf(values, args);
    const difference = firstDifference(expected, actual, rules, '$');
    if (difference === null) return { score: 1 };
    return {
      score: 0,
      metadata: {
        expected: compactValue(expected, cut),
        actual: compactValue(actual, cut),
        // For big structures the two values above are cut: point at where they part.
        ...(difference !== '$' && { differsAt: difference }),
      },
    };
  },
});

function normalize(text: string, rules: StringRules): string {
  const trimmed = rules.trim ? text.trim() : text;
  return rules.ignoreCase ? trimmed.toLowerCase() : trimmed;
}

/** `$.name` for identifier-like keys, `$["odd key"]` for the rest. */
function memberPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * The JSON-like path (`$.items[2].name`) of the first place `a` and `b` differ, or null when they
 * are equal. Object keys whose value is `undefined` count as absent, as in JSON.
 */
function firstDifference(a: unknown, b: unknown, rules: StringRules, path: string): string | null {
  if (typeof a === 'string' && typeof b === 'string') {
    return normalize(a, rules) === normalize(b, rules) ? null : path;
  }
  if (typeof a === 'string' || typeof b === 'string') {
    if (a === undefined || b === undefined) return path;
    return normalize(textOf(a), rules) === normalize(textOf(b), rules) ? null : path;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return path;
    for (let i = 0; i < a.length; i++) {
      const inner = firstDifference(a[i], b[i], rules, `${path}[${i}]`);
      if (inner !== null) return inner;
    }
    return null;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keysA = Object.keys(a).filter((key) => a[key] !== undefined);
    const keysB = Object.keys(b).filter((key) => b[key] !== undefined);
    if (keysA.length !== keysB.length) return path;
    for (const key of keysA) {
      if (!Object.hasOwn(b, key)) return path;
      const inner = firstDifference(a[key], b[key], rules, memberPath(path, key));
      if (inner !== null) return inner;
    }
    return null;
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    // Dates, class instances, …: compare what they serialize to, as the results artifact would.
    return !Array.isArray(a) && !Array.isArray(b) && textOf(a) === textOf(b) ? null : path;
  }
  // Primitives (and mismatched kinds). NaN equals NaN here: both sides "are" the same value.
  return Object.is(a, b) || a === b ? null : path;
}
