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
 * each case it read a field of so has the note in its `warnings` (see {@link CaseFieldWatch}).
 */
export function functionTarget<TCase, TOutput>(
  fn: TestFn<TCase, TOutput>,
  description: string,
  warn?: (message: string) => void,
): Target<TCase, TOutput> {
  const watch = new CaseFieldWatch();
  let warned = false;
  const warnOnce = (field: string): void => {
    if (!warned) warn?.(`${description.replace(/^function /, '')} read ${caseFieldNote(field)}`);
    warned = true;
  };
  return {
    description,
    call(args) {
      const read = warn !== undefined ? watch.watch(args) : undefined;
      if (read === undefined) {
        const value = fn(args);
        return isThenable(value)
          ? Promise.resolve(value).then((output) => ({ output }))
          : { output: value };
      }
      // An async function may read the field after an await: asked once the call settled.
      const result = (output: TOutput): TargetOutput<TOutput> => {
        const field = read();
        if (field === undefined) return { output };
        warnOnce(field);
        return { output, warnings: [`the function read ${caseFieldNote(field)}`] };
      };
      // What the field read gave, `undefined`, is most often what makes such a function throw
      // (`testCase.q.trim()`): the case is errored with its own error, and the run still says why.
      return callWatched(fn, args, result, () => {
        const field = read();
        if (field !== undefined) warnOnce(field);
      });
    },
  };
}

/**
 * Calls `fn(args)`, a call being watched: what it gives (once its promise settled) to `settled`;
 * a throw or rejection first to `failed`, and then on, as the call's own error.
 */
export function callWatched<A, T, R>(
  fn: (args: A) => T | PromiseLike<T>,
  args: A,
  settled: (value: T) => R,
  failed: (error: unknown) => void,
): R | Promise<R> {
  const fail = (error: unknown): never => {
    failed(error);
    throw error;
  };
  let value: T | PromiseLike<T>;
  try {
    value = fn(args);
  } catch (error) {
    return fail(error);
  }
  return isThenable(value) ? Promise.resolve(value).then(settled, fail) : settled(value);
}

// Taken when the module loads: the code under test runs in this process, and may replace them.
const defineProperty = Object.defineProperty;
const ownKeys = Object.keys;

/**
 * Watches the calls of one function for a read, from its argument, of a key the argument lacks
 * but its test case has: a function written the way the Autoblocks Python SDK's `fn(test_case)`
 * is, as `(testCase) => testCase.input`, gets the one object `{ testCase, params, signal }` and
 * reads `undefined` there.
 *
 * Each such key is given a getter on the argument that notes the read and gives `undefined`, as
 * the read gave before; not enumerable, so spreading, printing or cloning the argument
 * (`structuredClone`, a worker's `postMessage`) sees what it always did, which a Proxy of it
 * would not. `then` and `toJSON` are left alone: `await` and `JSON.stringify` read them of any
 * object. A function written so reads the field on every call, so only the first call is watched,
 * and every call once one was found reading (then each case gets its note); the others run as
 * they always did.
 */
export class CaseFieldWatch {
  #calls = 0;
  #found = false;

  /**
   * Prepares `args` for one call: what the call read once it settled, or `undefined` when the call
   * is not watched.
   */
  watch(args: { testCase: unknown }): (() => string | undefined) | undefined {
    if (this.#calls > 0 && !this.#found) return undefined;
    this.#calls++;
    const testCase = args.testCase;
    if (typeof testCase !== 'object' || testCase === null) return undefined;
    let read: string | undefined;
    for (const key of ownKeys(testCase)) {
      if (key in args || key === 'then' || key === 'toJSON') continue;
      defineProperty(args, key, {
        configurable: true,
        get: () => {
          read ??= key;
          // Read now, not when the call settles: the calls started meanwhile are watched too.
          this.#found = true;
          return undefined;
        },
      });
    }
    return () => read;
  }
}

/** What a function that read the test case's `field` from its argument is told. */
export function caseFieldNote(field: string): string {
  const path = /^[A-Za-z_$][\w$]*$/.test(field) ? `.${field}` : `[${JSON.stringify(field)}]`;
  return `${JSON.stringify(field)} from its argument, which lacks it (the test case has it): it is called with { testCase, params, signal }, not with the test case as in the Python SDK; read it as ({ testCase }) => \u2026 testCase${path} \u2026`;
}
