/**
 * `runTestSuite()` called without its object of arguments (none, `null`, a Promise of one not
 * awaited, a list of suites) threw `TypeError: Cannot read properties of undefined (reading
 * 'id')` from evalgate's internals. It is a usage mistake: a `UsageError` saying what the call
 * takes and what it got.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import { UsageError } from '../src/shared/errors.ts';

async function refusal(args: unknown): Promise<unknown> {
  return (runTestSuite as (a: unknown) => Promise<unknown>)(args).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
}

describe('runTestSuite without an object of arguments', () => {
  for (const [what, args, found] of [
    ['nothing', undefined, 'nothing'],
    ['null', null, 'null'],
    ['a Promise', Promise.resolve({ id: 's' }), 'a Promise'],
    ['a list', [{ id: 's' }], 'an array'],
    ['a string', 's', '"s"'],
  ] as const) {
    it(`${what}: a UsageError naming what it got`, async () => {
      const error = await refusal(args);
      assert.ok(error instanceof UsageError, `a UsageError, not ${String(error)}`);
      assert.match(
        error.message,
        /^runTestSuite: expects one object of arguments \(\{ id, testCases, testCaseHash, fn, evaluators, … \}\), got /,
      );
      assert.ok(error.message.includes(`got ${found}`), error.message);
    });
  }
});
