/**
 * Every built-in evaluator, by the name used in `evals.yaml` (`use: is-equals`). The record is
 * typed by `BuiltinEvaluatorName`, so a name without an implementation is a compile error.
 */
import { assertions } from './assertions.ts';
import { contains } from './contains.ts';
import { hasAllSubstrings } from './has-all-substrings.ts';
import { isEquals } from './is-equals.ts';
import { isValidJson } from './is-valid-json.ts';
import { accuracy } from './judges/accuracy.ts';
import { answerRelevancy } from './judges/answer-relevancy.ts';
import { automaticBattle } from './judges/automatic-battle.ts';
import { contextEntitiesRecall } from './judges/context-entities-recall.ts';
import { contextPrecision } from './judges/context-precision.ts';
import { contextRecall } from './judges/context-recall.ts';
import { factualCorrectness } from './judges/factual-correctness.ts';
import { faithfulness } from './judges/faithfulness.ts';
import { llmContextPrecision } from './judges/llm-context-precision.ts';
import { llmContextRecall } from './judges/llm-context-recall.ts';
import { llmJudge } from './judges/llm-judge.ts';
import { manualBattle } from './judges/manual-battle.ts';
import { noiseSensitivity } from './judges/noise-sensitivity.ts';
import { nsfw } from './judges/nsfw.ts';
import { semanticSimilarity } from './judges/semantic-similarity.ts';
import { toxicity } from './judges/toxicity.ts';
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
  | 'latency'
  | 'llm-judge'
  | 'accuracy'
  | 'nsfw'
  | 'toxicity'
  | 'manual-battle'
  | 'automatic-battle'
  | 'faithfulness'
  | 'answer-relevancy'
  | 'semantic-similarity'
  | 'context-precision'
  | 'context-recall'
  | 'llm-context-precision'
  | 'llm-context-recall'
  | 'context-entities-recall'
  | 'factual-correctness'
  | 'noise-sensitivity';

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
  'llm-judge': llmJudge,
  accuracy,
  nsfw,
  toxicity,
  'manual-battle': manualBattle,
  'automatic-battle': automaticBattle,
  faithfulness,
  'answer-relevancy': answerRelevancy,
  'semantic-similarity': semanticSimilarity,
  'context-precision': contextPrecision,
  'context-recall': contextRecall,
  'llm-context-precision': llmContextPrecision,
  'llm-context-recall': llmContextRecall,
  'context-entities-recall': contextEntitiesRecall,
  'factual-correctness': factualCorrectness,
  'noise-sensitivity': noiseSensitivity,
};

/** The built-in names, in the order above (for docs, `--help` and "did you mean" messages). */
export const BUILTIN_EVALUATOR_NAMES = Object.keys(builtinEvaluators) as BuiltinEvaluatorName[];

/** True when `name` is a built-in evaluator's name. */
export function isBuiltinEvaluatorName(name: string): name is BuiltinEvaluatorName {
  return Object.hasOwn(builtinEvaluators, name);
}
