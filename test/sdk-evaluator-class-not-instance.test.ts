/**
 * An evaluator class given where an instance goes (`evaluators: [HasAllSubstrings]`, the
 * Python SDK's `HasAllSubstrings()` ported without `new`) was refused as "got a function",
 * which does not say what to change. The message names the class and the instance to pass.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import { BaseTestEvaluator } from '../src/evaluators/base.ts';
import { BaseIsEquals } from '../src/testing.ts';
import { UsageError } from '../src/shared/errors.ts';

interface Case {
  q: string;
}

class HasAllSubstrings extends BaseTestEvaluator<Case, string> {
  id = 'has-all-substrings';
  evaluateTestCase(): { score: number } {
    return { score: 1 };
  }
}

class IsEquals extends BaseIsEquals<Case, string> {
  id = 'is-equals';
  testCaseMapper({ testCase }: { testCase: Case }): string {
    return testCase.q;
  }
  outputMapper({ output }: { output: string }): string {
    return output;
  }
}

async function refusal(evaluators: unknown[]): Promise<string> {
  const error: unknown = await runTestSuite({
    id: 's',
    testCases: [{ q: 'a' }],
    testCaseHash: ['q'],
    fn: ({ testCase }: { testCase: Case }) => testCase.q,
    evaluators: evaluators as HasAllSubstrings[],
    quiet: true,
    setExitCode: false,
  }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  assert.ok(error instanceof UsageError, `a UsageError, not ${String(error)}`);
  return error.message;
}

describe('an evaluator class given instead of an instance', () => {
  it('is refused naming the class and the instance to pass', async () => {
    assert.equal(
      await refusal([HasAllSubstrings, new HasAllSubstrings(), IsEquals]),
      'runTestSuite(s): evaluators[0] must be an evaluator (an object with an id and an evaluateTestCase method), got the class HasAllSubstrings: pass an instance, new HasAllSubstrings(); ' +
        'evaluators[2] must be an evaluator (an object with an id and an evaluateTestCase method), got the class IsEquals: pass an instance, new IsEquals()',
    );
  });

  it('but a plain function is still "a function"', async () => {
    assert.equal(
      await refusal([() => ({ score: 1 })]),
      'runTestSuite(s): evaluators[0] must be an evaluator (an object with an id and an evaluateTestCase method), got a function',
    );
  });
});
