/**
 * QA round 10, thresholds on the SDK path. H1: a threshold with no bound (`{}`, a bound that is
 * `undefined` or `null`) passed every score, whether a class field, a plain object's setting or
 * returned in an evaluation; it is refused, up front where the threshold is known before the
 * run, else as the evaluation's error. M5: a range no score in [0, 1] can meet is reported for
 * every such range (`{ gte: 1.5 }`), not only for crossed bounds.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import { BaseIsEquals } from '../src/evaluators/sdk/logic.ts';
import type { Evaluation, TestEvaluatorObject, Threshold } from '../src/types/index.ts';

interface C {
  input: string;
  expected: string;
}

const CASES: C[] = [{ input: 'hi world', expected: 'hello world' }];

/** A suite of CASES whose `fn` echoes the input: `is-equals` scores 0 on it. */
function suite(evaluators: Parameters<typeof runTestSuite<C, string>>[0]['evaluators']) {
  return runTestSuite<C, string>({
    id: 'thr',
    testCases: CASES,
    testCaseHash: ['input'],
    fn: ({ testCase }) => testCase.input,
    evaluators,
    quiet: true,
    setExitCode: false,
  });
}

/** The message of the `UsageError` `run` rejects with (fails when it resolves). */
async function usageMessage(run: () => Promise<unknown>): Promise<string> {
  let thrown: unknown;
  try {
    await run();
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown instanceof Error, 'expected runTestSuite to throw');
  assert.equal(thrown.name, 'UsageError');
  return thrown.message;
}

describe('H1: a class field threshold with no bound is refused before the run', () => {
  it('{ gte: cfg.minScore } with the setting missing, on BaseIsEquals', async () => {
    const cfg: { minScore?: number } = {};
    class IsEquals extends BaseIsEquals<C, string> {
      id = 'is-equals';
      threshold: Threshold = { gte: cfg.minScore };
      testCaseMapper({ testCase }: { testCase: C }): string {
        return testCase.expected;
      }
      outputMapper({ output }: { output: string }): string {
        return output;
      }
    }
    assert.equal(
      await usageMessage(() => suite([new IsEquals()])),
      'runTestSuite(thr): evaluators[0].threshold.gte is undefined: give a number, or leave the key out (evaluator "is-equals")',
    );
  });
});

describe('H1: a plain-object evaluator whose threshold has no bound is refused', () => {
  const table: [string, unknown, string][] = [
    [
      '{}',
      {},
      'evaluators[0].threshold has no bound: expected at least one of lt, lte, gt, gte, got an object {} (evaluator "e")',
    ],
    [
      '{ gte: undefined }',
      { gte: undefined },
      'evaluators[0].threshold.gte is undefined: give a number, or leave the key out (evaluator "e")',
    ],
    [
      '{ gte: null }',
      { gte: null },
      'evaluators[0].threshold.gte is null: give a number, or leave the key out (evaluator "e")',
    ],
    [
      '{ gte: undefined, lt: undefined }',
      { gte: undefined, lt: undefined },
      'evaluators[0].threshold.gte is undefined: give a number, or leave the key out (evaluator "e")',
    ],
  ];
  for (const [name, threshold, message] of table) {
    it(name, async () => {
      const evaluator = {
        id: 'e',
        threshold,
        evaluateTestCase: () => ({ score: 0 }),
      } as unknown as TestEvaluatorObject<C, string>;
      assert.equal(await usageMessage(() => suite([evaluator])), `runTestSuite(thr): ${message}`);
    });
  }
});

describe('H1: a returned threshold with no bound is the evaluation error, not a pass', () => {
  const table: [string, unknown, string][] = [
    [
      '{}',
      {},
      'threshold has no bound: expected at least one of lt, lte, gt, gte, got an object {}',
    ],
    [
      '{ gte: undefined, lt: undefined }',
      { gte: undefined, lt: undefined },
      'threshold.gte is undefined: give a number, or leave the key out',
    ],
    [
      '{ gte: 0.9, lt: null }',
      { gte: 0.9, lt: null },
      'threshold.lt is null: give a number, or leave the key out',
    ],
  ];
  for (const [name, threshold, message] of table) {
    it(name, async () => {
      const result = await suite([
        { id: 'e', evaluateTestCase: () => ({ score: 0.1, threshold }) as unknown as Evaluation },
      ]);
      const evaluation = result.runs[0]?.cases[0]?.evaluations[0];
      assert.equal(evaluation?.error, message);
      assert.equal(evaluation?.passed, false);
      assert.equal(result.verdict, 'fail');
    });
  }
});

describe('M5: every range no score in [0, 1] can meet is an impossible threshold', () => {
  const table: [Threshold, string][] = [
    [{ gte: 1.5 }, '>= 1.5'],
    [{ gt: 2 }, '> 2'],
    [{ lte: -0.1 }, '<= -0.1'],
    [{ lt: -1 }, '< -1'],
    [{ gte: 1.2, lt: 2 }, '>= 1.2 and < 2'],
  ];
  for (const [threshold, text] of table) {
    it(`${JSON.stringify(threshold)}: returned, it is the evaluation's error`, async () => {
      const result = await suite([{ id: 'e', evaluateTestCase: () => ({ score: 1, threshold }) }]);
      const evaluation = result.runs[0]?.cases[0]?.evaluations[0];
      assert.equal(evaluation?.error, `impossible threshold: no score in [0, 1] is ${text}`);
      assert.equal(evaluation?.passed, false);
    });
  }

  it('{ gte: 1.5 } on a plain-object evaluator is refused before the run', async () => {
    const evaluator: TestEvaluatorObject<C, string> = {
      id: 'pct',
      threshold: { gte: 1.5 },
      evaluateTestCase: () => ({ score: 1 }),
    };
    assert.equal(
      await usageMessage(() => suite([evaluator])),
      'runTestSuite(thr): evaluators[0].threshold: impossible threshold: no score in [0, 1] is >= 1.5 (evaluator "pct")',
    );
  });
});
