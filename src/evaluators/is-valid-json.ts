import type { Evaluation } from '../types/index.ts';
import { describeJsonError } from '../shared/json-syntax.ts';
import { truncateText } from './metadata.ts';
import { ACTUAL_OPTION } from './option-schemas.ts';
import { actualOf } from './options.ts';
import { defineBuiltin } from './define.ts';

/**
 * `is-valid-json`: a string must parse with `JSON.parse`; any other value must survive a JSON
 * round trip unchanged (no `undefined`, `NaN`, functions, class instances, cycles).
 */
export const isValidJson = defineBuiltin({
  summary: 'The value under test is valid JSON (a string that parses, or a JSON-safe value).',
  optionsSchema: {
    type: 'object',
    properties: { actual: ACTUAL_OPTION },
    additionalProperties: false,
  },
  defaultThreshold: { gte: 1 },
  prepare: (_, context) => context.scrub,
  score(values, args, scrub): Evaluation {
    const actual = actualOf(values, args);
    const error = typeof actual === 'string' ? parseError(actual, scrub) : jsonSafetyError(actual);
    return error === null ? { score: 1 } : { score: 0, metadata: { error } };
  },
});

function parseError(text: string, scrub: ((text: string) => string) | undefined): string | null {
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    // Where and what, as for any JSON evalgate reads: the engine's message quotes the text at the
    // error cut short, so an output holding a key there would keep a piece scrubbing misses;
    // what it quotes is scrubbed whole before it is cut, as for any JSON evalgate reads.
    return truncateText(`not valid JSON: ${describeJsonError(text, error, scrub)}`);
  }
}

/**
 * Why `value` would not come back the same from `JSON.parse(JSON.stringify(value))`, or null.
 * Checked by walking the value rather than comparing a round trip, so the message can say where.
 */
function jsonSafetyError(value: unknown, path = '$', seen = new Set<object>()): string | null {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return null;
    case 'number':
      return Number.isFinite(value) ? null : `${path} is ${value}, which JSON cannot represent`;
    case 'undefined':
      return `${path} is undefined, which JSON cannot represent`;
    case 'object':
      break;
    default:
      return `${path} is a ${typeof value}, which JSON cannot represent`;
  }
  if (value === null) return null;
  if (seen.has(value)) return `${path} is a circular reference`;
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const error = jsonSafetyError(value[i], `${path}[${i}]`, seen);
        if (error !== null) return error;
      }
      return null;
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      const name = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
      return `${path} is a ${name}, which JSON does not keep as it is`;
    }
    for (const [key, item] of Object.entries(value)) {
      const error = jsonSafetyError(item, `${path}.${key}`, seen);
      if (error !== null) return error;
    }
    return null;
  } finally {
    // Shared (non-circular) references are fine in JSON: only ancestors count as cycles.
    seen.delete(value);
  }
}
