import type { EngineEvaluator, Threshold } from '../types.ts';

/** Context a built-in gets when it is created from an `evals.yaml` evaluator entry. */
export interface BuiltinContext {
  /** The evaluator's `id:` in the config. */
  id: string;
}

/**
 * A built-in evaluator: its option schema (for `with:`), its default threshold, and a factory.
 * `with` reaches `create` raw: templates (`{{case.x}}`) are resolved per case by the evaluator
 * itself through `resolveTemplates`, so a template error becomes that case's evaluation error.
 */
export interface BuiltinDefinition {
  /** One line for docs and `--help`. */
  summary: string;
  /** JSON Schema of `with:`, where any value may also be a `{{ template }}` string. */
  optionsSchema: Record<string, unknown>;
  /** Used when the config gives no `threshold:`. Absent: scores are reported, pass is null. */
  defaultThreshold?: Threshold;
  /**
   * Load-time checks beyond the schema (an invalid regex, min > max). Options holding templates
   * are passed as written; skip checks on those. Each problem names its option path (`pattern`).
   */
  validate?(options: Record<string, unknown>): { path: string; message: string }[];
  create(options: Record<string, unknown>, context: BuiltinContext): EngineEvaluator;
}
