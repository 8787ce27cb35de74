/** Catching the usage errors of command-line parsing, for the `test/cli-args*.test.ts` tests. */
import assert from 'node:assert/strict';
import { UsageError } from '../../src/shared/errors.ts';

/** Runs `fn`, which must throw a UsageError; returns its code and message. */
export function usageProblem(fn: () => unknown): { code: string | undefined; message: string } {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof UsageError, `a UsageError, not ${String(error)}`);
    return { code: error.issues[0]?.code, message: error.message };
  }
  assert.fail('expected a UsageError');
}
