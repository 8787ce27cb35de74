/**
 * A `pass` function that throws (or returns a non-boolean) is recorded as an evaluation of the
 * evaluator `pass`, so evals.yaml refuses that id. `runTestSuite` took it: a suite whose own
 * evaluator was `pass` had the two mixed in one summary (its 1 of 1 passing read as a pass
 * rate of 50%, with a mean over both), and `gate.evaluators.pass` judged the mixture. With a
 * `pass` function the id is now refused before the run; with `all` or `any` it stays free, as
 * nothing else is ever recorded under it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runTestSuite, type RunTestSuiteArgs } from '../src/api/run-test-suite.ts';
import { UsageError } from '../src/shared/errors.ts';

interface Case {
  q: string;
}

function suite(pass: RunTestSuiteArgs<Case, string>['pass']): RunTestSuiteArgs<Case, string> {
  return {
    id: 's',
    testCases: [{ q: 'a' }],
    testCaseHash: ['q'],
    fn: ({ testCase }) => testCase.q,
    evaluators: [{ id: 'pass', evaluateTestCase: () => ({ score: 1, threshold: { gte: 1 } }) }],
    pass,
    quiet: true,
    setExitCode: false,
  };
}

describe('runTestSuite: the evaluator id "pass" beside a pass function', () => {
  it('is refused before the run, as evals.yaml refuses it', async () => {
    const error: unknown = await runTestSuite(
      suite(() => {
        throw new Error('boom');
      }),
    ).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    assert.ok(error instanceof UsageError, `refused, not ${String(error)}`);
    assert.deepEqual(
      error.issues.map((issue) => issue.path),
      ['evaluators[0]'],
    );
    assert.match(
      error.message,
      /evaluators\[0\]: evaluator id "pass" is kept for the errors of the pass function: choose another id/,
    );
  });

  it('is still an evaluator like any other with pass: "all"', async () => {
    const result = await runTestSuite(suite('all'));
    assert.equal(result.verdict, 'pass');
    assert.deepEqual(result.runs[0]?.summary.evaluators.pass?.passRate, 1);
  });
});
