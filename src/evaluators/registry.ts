/**
 * Every built-in evaluator, by the name used in `evals.yaml` (`use: is-equals`). The record is
 * typed by `BuiltinEvaluatorName`, so a name without an implementation is a compile error.
 */
import { assertions } from './assertions.ts';
import { contains } from './contains.ts';
import { hasAllSubstrings } from './has-all-substrings.ts';
import { isEquals } from './is-equals.ts';
import { isValidJson } from './is-valid-json.ts';
import { jsonSchema } from './json-schema.ts';
import { latency } from './latency.ts';
import { length } from './length.ts';
import { levenshtein } from './levenshtein.ts';
import { regex } from './regex.ts';
import type { BuiltinDefinition } from './types.ts';

/** The names accepted by `use:` for built-in evaluators. */
export type BuiltinEvaluatorName =
  | 'is-equals'
  | 'is-valid-json'
  | 'has-all-substrings'
  | 'contains'
  | 'regex'
  | 'json-schema'
  | 'assertions'
  | 'levenshtein'
  | 'length'
  | 'latency';

/** The built-in evaluators, by name. */
export const builtinEvaluators: Record<BuiltinEvaluatorName, BuiltinDefinition> = {
  'is-equals': isEquals,
  'is-valid-json': isValidJson,
  'has-all-substrings': hasAllSubstrings,
  contains,
  regex,
  'json-schema': jsonSchema,
  assertions,
  levenshtein,
  length,
  latency,
};

/** The built-in names, in the order above (for docs, `--help` and "did you mean" messages). */
export const BUILTIN_EVALUATOR_NAMES = Object.keys(builtinEvaluators) as BuiltinEvaluatorName[];

/** True when `name` is a built-in evaluator's name. */
export function isBuiltinEvaluatorName(name: string): name is BuiltinEvaluatorName {
  return Object.hasOwn(builtinEvaluators, name);
}
