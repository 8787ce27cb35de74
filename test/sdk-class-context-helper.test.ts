/**
 * A subclass of an out-of-box class may have a helper of its own named `context` (a RAG suite's
 * `context(testCase)`, a common word there). The classes' internal accessor of the run's judge
 * settings was a protected `context()`: the helper replaced it, and every use of the class
 * failed with `Cannot read properties of undefined (reading 'context')`. It is `sdkContext()`
 * now, a name a suite's helper is not likely to take.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import { BaseIsEquals } from '../src/testing.ts';

interface Case {
  question: string;
  passage: string;
}

class GroundedAnswer extends BaseIsEquals<Case, string> {
  id = 'grounded-answer';
  /** The suite's own helper: the retrieved passage the answer must repeat. */
  context(testCase: Case): string {
    return testCase.passage;
  }
  testCaseMapper({ testCase }: { testCase: Case }): string {
    return this.context(testCase);
  }
  outputMapper({ output }: { output: string }): string {
    return output;
  }
}

describe('an out-of-box class with a context helper of its own', () => {
  it('runs and scores with it', async () => {
    const result = await runTestSuite<Case, string>({
      id: 's',
      testCases: [
        { question: 'height', passage: '300 meters' },
        { question: 'age', passage: '135 years' },
      ],
      testCaseHash: ['question'],
      fn: ({ testCase }) => (testCase.question === 'height' ? '300 meters' : 'old'),
      evaluators: [new GroundedAnswer()],
      quiet: true,
      setExitCode: false,
    });
    const evaluations = (result.runs[0]?.cases ?? []).map((c) => c.evaluations[0]);
    assert.deepEqual(
      evaluations.map((e) => [e?.score, e?.passed, e?.error]),
      [
        [1, true, null],
        [0, false, null],
      ],
    );
  });
});
