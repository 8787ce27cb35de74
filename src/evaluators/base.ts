import type { EvaluatorArgs, MaybeEvaluation, TestEvaluator } from '../types/index.ts';

/**
 * Base class for class-style evaluators, with the Autoblocks SDK's shape: set `id`, optionally
 * `maxConcurrency`, and implement `evaluateTestCase` (sync or async). Returning `undefined` or
 * `null` skips the case: it gets no evaluation from this evaluator, which is not a failure.
 *
 * In `evals.yaml`, a module export that extends this class is constructed with the evaluator's
 * `with:` options as its only argument.
 */
export abstract class BaseTestEvaluator<
  TCase = Record<string, unknown>,
  TOutput = unknown,
> implements TestEvaluator<TCase, TOutput> {
  abstract id: string;
  /**
   * Most concurrent `evaluateTestCase` calls of this evaluator (default: no limit of its own).
   * Declared so it shows on the class type; a subclass sets it as a plain field (or, in
   * JavaScript, a getter). `declare`: no own property is made on the instance, which would
   * hide a subclass's getter.
   */
  declare maxConcurrency?: number;
  // Nothing else is read from an instance (see api/grid-context.ts): a field such as
  // `threshold` on a subclass is its own state; an evaluation's threshold is the one returned.
  abstract evaluateTestCase(
    args: EvaluatorArgs<TCase, TOutput>,
  ): MaybeEvaluation | Promise<MaybeEvaluation>;
}
