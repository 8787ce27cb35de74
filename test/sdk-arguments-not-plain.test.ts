/**
 * A `runTestSuite` argument that is an object but no plain one was described by its own keys,
 * which such objects do not have: `testCases: loadCases()` without `await` said "got an object
 * {}", and so did a Set, a Map or a generator (the Python SDK's `gen_test_cases()`), leaving the
 * user to guess. The message names what it is.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import { UsageError } from '../src/shared/errors.ts';

/** The message of the UsageError `testCases` gets. */
async function refusal(testCases: unknown): Promise<string> {
  const error: unknown = await runTestSuite({
    id: 's',
    testCases: testCases as { q: string }[],
    testCaseHash: ['q'],
    fn: () => 1,
    quiet: true,
    setExitCode: false,
  }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  assert.ok(error instanceof UsageError, `a UsageError, not ${String(error)}`);
  return error.message;
}

const expected = (found: string): string =>
  `runTestSuite(s): testCases must be an array of test cases (objects), got ${found}`;

describe('runTestSuite names an argument that is an object of a class', () => {
  it('a Promise (a load not awaited)', async () => {
    const load = (): Promise<{ q: string }[]> => Promise.resolve([{ q: 'a' }]);
    assert.equal(await refusal(load()), expected('a Promise'));
  });

  it('a generator, a Set, a Map', async () => {
    function* generated(): Generator<{ q: string }> {
      yield { q: 'a' };
    }
    assert.equal(await refusal(generated()), expected('a Generator'));
    assert.equal(await refusal(new Set([{ q: 'a' }])), expected('a Set of 1 value'));
    assert.equal(await refusal(new Map([['a', { q: 'a' }]])), expected('a Map of 1 entry'));
  });

  it('an instance of a class of your own, with its fields', async () => {
    class Cases {
      source = 'cases.json';
    }
    assert.equal(await refusal(new Cases()), expected('a Cases {"source":"cases.json"}'));
  });

  it('but a plain object as before', async () => {
    assert.equal(await refusal({ q: 'a' }), expected('an object {"q":"a"}'));
  });
});
