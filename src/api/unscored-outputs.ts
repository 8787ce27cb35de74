/**
 * `fn` returning `undefined` under `runTestSuite`: as in the Autoblocks SDK, no evaluator runs on
 * that case. The SDK only reports such a case without evaluations; here a case without
 * evaluations passes, so a `return` left out of one branch of `fn` would pass its cases
 * unchecked. The calls are counted, and the run ends with a warning that says so.
 */
import { isThenable } from '../run/call.ts';
import { formatCount } from '../shared/format-count.ts';
import type { TestFn } from '../types/index.ts';

/** Counts the calls of one suite's `fn` that settled, and those that gave `undefined`. */
export class UndefinedOutputs {
  #settled = 0;
  #undefined = 0;

  /** `fn`, counted: its value (or what its promise resolves to) passed on as it is. */
  counted<TCase, TOutput>(fn: TestFn<TCase, TOutput>): TestFn<TCase, TOutput> {
    return (args) => {
      const value = fn(args);
      if (!isThenable(value)) return this.#seen(value);
      // A rejection passes through uncounted: that case errored, which says so itself.
      return Promise.resolve(value).then((output) => this.#seen(output));
    };
  }

  #seen<T>(output: T): T {
    this.#settled++;
    if (output === undefined) this.#undefined++;
    return output;
  }

  /** The warning of a run in which `fn` gave `undefined`, or `undefined` when it never did. */
  warning(id: string): string | undefined {
    const n = this.#undefined;
    if (n === 0) return undefined;
    return `warning: runTestSuite(${id}): fn returned undefined for ${formatCount(n)} of its ${formatCount(this.#settled)} ${this.#settled === 1 ? 'call' : 'calls'}: no evaluator ran on ${n === 1 ? 'that case' : 'those cases'} (as in the Autoblocks SDK), so nothing checked ${n === 1 ? 'it' : 'them'}; return the output (null when there is none) to have it scored\n`;
  }
}
