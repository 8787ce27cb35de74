/**
 * The usage errors `runTestSuite` throws for its arguments: one for a call not given its object of
 * arguments, one for every problem the checks found (check-arguments.ts).
 */
import { UsageError, describeValue, type Issue } from '../shared/errors.ts';

/**
 * The usage error of a call not given its one object of arguments (none, `null`, a list, a
 * Promise of one not awaited), which the checks would read as an object of none and describe
 * as such (or crash on), or undefined when `args` is one. `scrub` removes the run's secrets
 * from what it quotes of `args`, before it is cut.
 */
export function notArgumentsError(
  args: unknown,
  scrub: (text: string) => string,
): UsageError | undefined {
  const isObject = typeof args === 'object' && args !== null && !Array.isArray(args);
  if (isObject && typeof (args as { then?: unknown }).then !== 'function') return undefined;
  const message = `runTestSuite: expects one object of arguments ({ id, testCases, testCaseHash, fn, evaluators, … }), got ${describeValue(args, scrub)}`;
  return new UsageError(
    [{ code: 'sdk.argument', file: '', line: 0, col: 0, path: '', message }],
    message,
  );
}

/**
 * The usage error of `issues`, for the suite `id` (as given, valid or not); `scrub` removes the
 * run's secrets from an `id` that is not a string, quoted, before it is cut.
 */
export function argumentsError(
  id: unknown,
  issues: readonly Issue[],
  scrub: (text: string) => string = (text) => text,
): UsageError {
  const suite = typeof id === 'string' && id !== '' ? id : describeValue(id, scrub);
  return new UsageError(
    [...issues],
    `runTestSuite(${suite}): ${issues.map((i) => i.message).join('; ')}`,
  );
}
