/**
 * The function under test as a target: a TypeScript or JavaScript export (`function:` in
 * evals.yaml) or the `fn` given to `runTestSuite`. Its return value, or what its promise
 * resolves to, is the output.
 */
import { isThenable } from '../run/call.ts';
import type { Target, TestFn } from '../types/index.ts';

/** A target calling `fn`; `description` names it in plans and messages. */
export function functionTarget<TCase, TOutput>(
  fn: TestFn<TCase, TOutput>,
  description: string,
): Target<TCase, TOutput> {
  return {
    description,
    call(args) {
      const value = fn(args);
      return isThenable(value)
        ? Promise.resolve(value).then((output) => ({ output }))
        : { output: value };
    },
  };
}
