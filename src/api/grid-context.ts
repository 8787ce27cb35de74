/**
 * The grid point of the run a call belongs to, readable from anywhere inside the function under
 * test or an evaluator (`gridSearchAsyncLocalStorage.getStore()`), as the Autoblocks SDK offers
 * it; `params` in the call's arguments holds the same values.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { EngineEvaluator, Params, TestEvaluator, TestFn } from '../types/index.ts';

/** Holds the current grid point (`{}` for a suite without a grid) during `fn` and evaluators. */
export const gridSearchAsyncLocalStorage = new AsyncLocalStorage<Params | undefined>();

/** `fn`, run with its grid point in `gridSearchAsyncLocalStorage`. */
export function withGridPoint<TCase, TOutput>(fn: TestFn<TCase, TOutput>): TestFn<TCase, TOutput> {
  // The args object itself is passed on: its `signal` is a getter created on first read.
  return (args) => gridSearchAsyncLocalStorage.run(args.params, () => fn(args));
}

/**
 * `evaluator` as the engine runs it, its calls made with their grid point in
 * `gridSearchAsyncLocalStorage`. Its settings are read once, here; `undefined` / `null`
 * returns pass through (the engine skips the case).
 */
export function evaluatorWithGridPoint<TCase, TOutput>(
  evaluator: TestEvaluator<TCase, TOutput>,
): EngineEvaluator<TCase, TOutput> {
  const { id, maxConcurrency, threshold, timeoutMs, when, agreement } = evaluator;
  return {
    id,
    ...(maxConcurrency !== undefined ? { maxConcurrency } : {}),
    ...(threshold !== undefined ? { threshold } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(when !== undefined ? { when } : {}),
    ...(agreement !== undefined ? { agreement } : {}),
    evaluateTestCase: (args) =>
      gridSearchAsyncLocalStorage.run(
        args.params,
        // Skips are typed away here only: the engine accepts `undefined` / `null` at run time.
        () => evaluator.evaluateTestCase(args) as ReturnType<EngineEvaluator['evaluateTestCase']>,
      ),
  };
}
