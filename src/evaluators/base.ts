import type { Evaluation, EvaluatorArgs, MaybeEvaluation, TestEvaluator } from '../types/index.ts';

/**
 * `maxConcurrency` of an evaluator class instance that sets none (`_BaseEvaluator`'s in the SDK),
 * under `runTestSuite` and in evals.yaml alike; a plain object or function has no limit of its own.
 */
export const SDK_EVALUATOR_CONCURRENCY = 10;

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
   * Most concurrent `evaluateTestCase` calls of this evaluator (default: 10, as in the SDK, under
   * `runTestSuite` and in evals.yaml; the entry's `concurrency:` there wins).
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

/**
 * An event of the Autoblocks tracer, the argument of `evaluateEvent`. evalgate has no tracer, so
 * it never makes one: the type is here so that an evaluator written for both compiles.
 */
export interface TracerEvent {
  traceId?: string;
  message: string;
  timestamp: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  properties: Record<string, any>;
}

/**
 * The SDK's base of an evaluator run both on test cases and, by its tracer, on production events.
 * `runTestSuite` and evals.yaml run its `evaluateTestCase`, as for `BaseTestEvaluator`;
 * `evaluateEvent` is never called here.
 */
export abstract class BaseEvaluator<
  TCase = Record<string, unknown>,
  TOutput = unknown,
> extends BaseTestEvaluator<TCase, TOutput> {
  abstract evaluateEvent(args: { event: TracerEvent }): Evaluation | Promise<Evaluation>;
}

/**
 * The SDK's base of an evaluator of production events only, which its tracer runs. evalgate has
 * no tracer and runs none: given to `runTestSuite`, it is refused for lacking `evaluateTestCase`,
 * as the SDK's types refuse it there. Exported so that a module defining one still loads.
 */
export abstract class BaseEventEvaluator {
  abstract id: string;
  /** As on `BaseTestEvaluator`. */
  declare maxConcurrency?: number;
  abstract evaluateEvent(args: { event: TracerEvent }): Evaluation | Promise<Evaluation>;
}
