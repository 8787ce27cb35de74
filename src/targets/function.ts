/**
 * The function under test as a target: a TypeScript or JavaScript export (`function:` in
 * evals.yaml) or the `fn` given to `runTestSuite`. Its return value, or what its promise
 * resolves to, is the output.
 */
import { isThenable } from '../run/call.ts';
import type { Target, TargetOutput, TestFn } from '../types/index.ts';

/**
 * A target calling `fn`; `description` names it in plans and messages. With `warn` (evals.yaml's
 * function targets), a function written to take the test case itself is warned about once, and
 * each case it read a field of so has the note in its `warnings` (see `watchCaseFieldReads`).
 */
export function functionTarget<TCase, TOutput>(
  fn: TestFn<TCase, TOutput>,
  description: string,
  warn?: (message: string) => void,
): Target<TCase, TOutput> {
  let warned = false;
  return {
    description,
    call(args) {
      const watch = warn !== undefined ? watchCaseFieldReads(args) : undefined;
      const value = fn(watch?.args ?? args);
      const result = (output: TOutput): TargetOutput<TOutput> => {
        const field = watch?.field();
        if (field === undefined || warn === undefined) return { output };
        const note = `the function read ${caseFieldNote(field)}`;
        if (!warned) warn(`${description.replace(/^function /, '')} read ${caseFieldNote(field)}`);
        warned = true;
        return { output, warnings: [note] };
      };
      return isThenable(value) ? Promise.resolve(value).then(result) : result(value);
    },
  };
}

// Taken when the module loads: the code under test runs in this process, and may replace them.
const hasOwn = Object.hasOwn;
const reflectGet = Reflect.get;

/**
 * `args` as handed to the function, noting the first read of a key it lacks but its test case
 * has: a function written the way the Autoblocks Python SDK's `fn(test_case)` is, as
 * `(testCase) => testCase.input`, gets the one object `{ testCase, params, signal }` and reads
 * `undefined` there. Every read goes to `args` itself, so its getters (the lazily made `signal`)
 * work as they do.
 */
export function watchCaseFieldReads<T extends { testCase: unknown }>(
  args: T,
): { args: T; field: () => string | undefined } {
  const testCase = args.testCase;
  if (typeof testCase !== 'object' || testCase === null) return { args, field: () => undefined };
  let read: string | undefined;
  const watched = new Proxy(args, {
    get: (target, key) => {
      if (typeof key === 'string' && !(key in target) && hasOwn(testCase, key)) {
        read ??= key;
      }
      return reflectGet(target, key) as unknown;
    },
  });
  return { args: watched, field: () => read };
}

/** What a function that read the test case's `field` from its argument is told. */
export function caseFieldNote(field: string): string {
  const path = /^[A-Za-z_$][\w$]*$/.test(field) ? `.${field}` : `[${JSON.stringify(field)}]`;
  return `${JSON.stringify(field)} from its argument, which has no such key, but the test case has: it is called with one object, { testCase, params, signal }, not with the test case as the Python SDK's fn(test_case) is; read it as ({ testCase }) => \u2026 testCase${path} \u2026`;
}
