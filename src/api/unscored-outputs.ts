/**
 * `fn` returning `undefined` under `runTestSuite`: as in the Autoblocks SDK, no evaluator runs on
 * that case. The SDK only reports such a case without evaluations; here a case without
 * evaluations passes, so a `return` left out of one branch of `fn` would pass its cases
 * unchecked. The calls are counted, and the run ends with a warning that says so.
 */
import { isThenable } from '../run/call.ts';
import { formatCount } from '../shared/format-count.ts';
import { CaseFieldWatch, callWatched, caseFieldNote } from '../targets/function.ts';
import type { TestFn } from '../types/index.ts';

/** Counts the calls of one suite's `fn` that settled, and those that gave `undefined`. */
export class UndefinedOutputs {
  #settled = 0;
  #undefined = 0;
  /**
   * A field of the test case that `fn` read from its argument, which does not have it: `fn`
   * written the Python SDK's way, `fn(test_case)`, as `(testCase) => testCase.input`, gets the
   * one object `{ testCase, params, signal }` and reads `undefined` there.
   */
  #caseFieldRead: string | undefined;
  #watch = new CaseFieldWatch();

  /** `fn`, counted: its value (or what its promise resolves to) passed on as it is. */
  counted<TCase, TOutput>(fn: TestFn<TCase, TOutput>): TestFn<TCase, TOutput> {
    return (args) => {
      const read = this.#watch.watch(args);
      if (read === undefined) {
        const value = fn(args);
        if (!isThenable(value)) return this.#seen(value, undefined);
        // A rejection passes through uncounted: that case errored, which says so itself.
        return Promise.resolve(value).then((output) => this.#seen(output, undefined));
      }
      // The `undefined` a field read gave is most often what makes such a fn throw
      // (`testCase.input.trim()`): uncounted, and still named. An async fn may read the field
      // after an await, so it is asked once the call settles.
      return callWatched(
        fn,
        args,
        (output) => this.#seen(output, read()),
        () => {
          this.#caseFieldRead ??= read();
        },
      );
    };
  }

  #seen<T>(output: T, caseFieldRead: string | undefined): T {
    this.#caseFieldRead ??= caseFieldRead;
    this.#settled++;
    if (output === undefined) this.#undefined++;
    return output;
  }

  /**
   * The warnings of a run in which `fn` gave `undefined`, or read a test case's field from its
   * argument (see `#caseFieldRead`), or `undefined` when it did neither.
   */
  warning(id: string): string | undefined {
    const n = this.#undefined;
    const lines: string[] = [];
    if (n > 0) {
      lines.push(
        `warning: runTestSuite(${id}): fn returned undefined for ${formatCount(n)} of its ${formatCount(this.#settled)} ${this.#settled === 1 ? 'call' : 'calls'}: no evaluator ran on ${n === 1 ? 'that case' : 'those cases'} (as in the Autoblocks SDK), so nothing checked ${n === 1 ? 'it' : 'them'}; return the output (null when there is none) to have it scored\n`,
      );
    }
    const field = this.#caseFieldRead;
    if (field !== undefined) {
      lines.push(`warning: runTestSuite(${id}): fn read ${caseFieldNote(field)}\n`);
    }
    return lines.length > 0 ? lines.join('') : undefined;
  }
}
