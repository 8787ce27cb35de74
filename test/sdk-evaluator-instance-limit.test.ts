/**
 * An evaluator's `maxConcurrency` belongs to the evaluator object: two `runTestSuite` calls
 * running at once with the same instance share its limit, so its calls in flight never pass it
 * (each call having a limit of its own would let twice as many run).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BaseTestEvaluator,
  runTestSuite,
  type Evaluation,
  type TestEvaluator,
} from 'evalgate/testing';

interface Case {
  input: string;
}

const quiet = { quiet: true, setExitCode: false } as const;

/** Counts the calls in flight and keeps the most seen at once. */
class Gauge {
  now = 0;
  peak = 0;
  async hold(): Promise<void> {
    this.now++;
    this.peak = Math.max(this.peak, this.now);
    // A few turns of the event loop: long enough for the other suite's calls to start.
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    this.now--;
  }
}

/** Two suites at once, each of 8 cases run 8 at a time, both with `evaluator`. */
async function twoSuitesWith(evaluator: TestEvaluator<Case, string>): Promise<void> {
  const suite = (id: string) =>
    runTestSuite<Case, string>({
      id,
      testCases: Array.from({ length: 8 }, (_, i) => ({ input: `${id} ${i}` })),
      testCaseHash: ['input'],
      fn: ({ testCase }) => testCase.input,
      evaluators: [evaluator],
      maxTestCaseConcurrency: 8,
      ...quiet,
    });
  const results = await Promise.all([suite('a'), suite('b')]);
  for (const result of results) assert.equal(result.verdict, 'pass');
}

describe('maxConcurrency belongs to the evaluator instance', () => {
  it('a class instance shared by two concurrent runTestSuite calls stays within its limit', async () => {
    const gauge = new Gauge();
    class Limited extends BaseTestEvaluator<Case, string> {
      id = 'limited';
      override maxConcurrency = 2;
      async evaluateTestCase(): Promise<Evaluation> {
        await gauge.hold();
        return { score: 1 };
      }
    }
    await twoSuitesWith(new Limited());
    assert.equal(gauge.peak, 2);
  });

  it('a plain object shared by two concurrent runTestSuite calls stays within its limit', async () => {
    const gauge = new Gauge();
    await twoSuitesWith({
      id: 'limited',
      maxConcurrency: 1,
      evaluateTestCase: async () => {
        await gauge.hold();
        return { score: 1 };
      },
    });
    assert.equal(gauge.peak, 1);
  });

  it('two instances of one class each have their own limit', async () => {
    let now = 0;
    let peak = 0;
    class Limited extends BaseTestEvaluator<Case, string> {
      id = 'limited';
      override maxConcurrency = 1;
      async evaluateTestCase(): Promise<Evaluation> {
        now++;
        peak = Math.max(peak, now);
        // Waits for the other instance's call (2 s at most): with one limit for both, it never comes.
        const until = Date.now() + 2000;
        while (peak < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
        now--;
        return { score: 1 };
      }
    }
    const first = new Limited();
    const second = new Limited();
    const suite = (id: string, evaluator: Limited) =>
      runTestSuite<Case, string>({
        id,
        testCases: Array.from({ length: 4 }, (_, i) => ({ input: `${id} ${i}` })),
        testCaseHash: ['input'],
        fn: ({ testCase }) => testCase.input,
        evaluators: [evaluator],
        maxTestCaseConcurrency: 4,
        ...quiet,
      });
    await Promise.all([suite('a', first), suite('b', second)]);
    assert.equal(peak, 2);
  });
});
