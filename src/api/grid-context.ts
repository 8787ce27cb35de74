/**
 * The grid point of the run a call belongs to, readable from anywhere inside the function under
 * test or an evaluator (`gridSearchAsyncLocalStorage.getStore()`), as the Autoblocks SDK offers
 * it; `params` in the call's arguments holds the same values.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { checkThreshold } from '../run/evaluation.ts';
import { isPlainObject } from '../shared/is-record.ts';
import { SDK_EVALUATOR_CONCURRENCY } from '../evaluators/base.ts';
import type {
  EngineEvaluator,
  Params,
  TestEvaluator,
  TestEvaluatorObject,
  TestFn,
} from '../types/index.ts';

/**
 * The values of a grid point as `getStore()` gives them. Their type is `any`, as the SDK's
 * `Record<string, string>` lets a suite use one as a string (`model: store?.model ?? 'gpt-4o'`)
 * with no cast, while evalgate's grid lists may also hold numbers and objects.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type GridPoint = Record<string, any>;

/**
 * Holds the current grid point during `fn` and evaluators. As in the SDK, it is `undefined` in a
 * suite given no `gridSearchParams` (`params` in the arguments is `{}` there), so a suite that
 * tells the two apart with `if (store)` runs as it did.
 */
export const gridSearchAsyncLocalStorage = new AsyncLocalStorage<GridPoint | undefined>();

/** Makes a call of user code, for whoever counts them (suite-process.ts's `UserCalls`). */
export type CallTracker = <T>(call: () => T) => T;

const untracked: CallTracker = (call) => call();

/** What `getStore()` holds for a call given `params`: none when the suite has no grid. */
const storedPoint = (params: Params, grid: boolean): GridPoint | undefined =>
  grid ? params : undefined;

/**
 * `fn`, run with its grid point in `gridSearchAsyncLocalStorage` (`grid`: the suite was given
 * `gridSearchParams`), each call made by `track`.
 */
export function withGridPoint<TCase, TOutput>(
  fn: TestFn<TCase, TOutput>,
  grid: boolean,
  track: CallTracker = untracked,
): TestFn<TCase, TOutput> {
  // The args object itself is passed on: its `signal` is a getter created on first read.
  return (args) =>
    track(() => gridSearchAsyncLocalStorage.run(storedPoint(args.params, grid), () => fn(args)));
}

/**
 * `evaluator` as the engine runs it, its calls made by `track` with their grid point in
 * `gridSearchAsyncLocalStorage` (none when not `grid`, as for `withGridPoint`). Its settings are read once, here; `undefined` / `null`
 * returns pass through (the engine skips the case).
 *
 * Only what the SDK documents is read from a class instance: `id`, `maxConcurrency` (10 when
 * it sets none, as in the SDK) and `evaluateTestCase`. Any other field of a class (`threshold`, `when`, `timeoutMs`, …) is the
 * user's own state, not a setting: the engine's overrides of those names stand for evals.yaml's
 * `threshold:`, `when:` and so on, which a suite in code does not have. An evaluation's
 * threshold is the one it returns (the SDK's out-of-box classes put their `threshold` field
 * there themselves, see BuiltinBackedEvaluator.sdkScore). A plain object literal may set
 * `threshold` and `timeoutMs` as settings (`TestEvaluatorObject`, checked with the arguments).
 */
export function evaluatorWithGridPoint<TCase, TOutput>(
  evaluator: TestEvaluator<TCase, TOutput>,
  grid: boolean,
  track: CallTracker = untracked,
): EngineEvaluator<TCase, TOutput> {
  const { id } = evaluator;
  const plain = isPlainObject(evaluator);
  // A class instance that sets none gets the SDK's default of its base class: a suite with
  // maxTestCaseConcurrency above it keeps its judges' calls to 10 as it did there.
  const maxConcurrency =
    evaluator.maxConcurrency ?? (plain ? undefined : SDK_EVALUATOR_CONCURRENCY);
  const settings: Partial<TestEvaluatorObject<TCase, TOutput>> = plain ? evaluator : {};
  const { threshold: given, timeoutMs } = settings;
  // Checked with the arguments already (a bad one throws there); this drops its null bounds.
  const checked = given != null ? checkThreshold(given) : undefined;
  const threshold = checked?.ok === true ? checked.threshold : undefined;
  return {
    id,
    // The limit is the instance's: two `runTestSuite` calls given it share it (evaluator-limits.ts).
    ...(maxConcurrency !== undefined ? { maxConcurrency, limitOwner: evaluator } : {}),
    ...(threshold !== undefined ? { threshold } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    // `fn` gave `undefined`: no evaluator runs on the case, as in the SDK (unscored-outputs.ts).
    evaluateTestCase: (args) =>
      args.output === undefined
        ? (undefined as unknown as ReturnType<EngineEvaluator['evaluateTestCase']>)
        : track(() =>
            gridSearchAsyncLocalStorage.run(
              storedPoint(args.params, grid),
              // Skips are typed away here only: the engine accepts `undefined` / `null` at run time.
              () =>
                evaluator.evaluateTestCase(args) as ReturnType<EngineEvaluator['evaluateTestCase']>,
            ),
          ),
  };
}
