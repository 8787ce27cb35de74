import type { EngineEvaluator, Evaluation, EvaluatorArgs } from '../types/index.ts';

/**
 * Base class for class-style evaluators, with the Autoblocks SDK's shape: set `id`, optionally
 * `maxConcurrency`, and implement `evaluateTestCase` (sync or async).
 *
 * In `evals.yaml`, a module export that extends this class is constructed with the evaluator's
 * `with:` options as its only argument.
 */
export abstract class BaseTestEvaluator<
  TCase = Record<string, unknown>,
  TOutput = unknown,
> implements EngineEvaluator<TCase, TOutput> {
  abstract id: string;
  // maxConcurrency, threshold and timeoutMs (see EngineEvaluator) are not declared here on
  // purpose: a subclass then sets them as plain fields (`maxConcurrency = 5`), as Autoblocks
  // suites do, without needing `override` under noImplicitOverride.
  abstract evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Evaluation | Promise<Evaluation>;
}
