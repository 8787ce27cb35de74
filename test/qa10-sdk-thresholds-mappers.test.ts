/**
 * QA round 10, M4: the SDK's out-of-box classes took whatever their mappers returned. In
 * JavaScript a misspelt field on both sides of `BaseIsEquals` gave `undefined === undefined`,
 * a score of 1 and a pass on every case. A mapper result of the wrong type is now that
 * evaluation's error, naming the class and the mapper.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import {
  BaseAssertions,
  BaseHasAllSubstrings,
  BaseIsEquals,
  BaseIsValidJSON,
} from '../src/evaluators/sdk/logic.ts';
import type { Assertion, TestEvaluator } from '../src/types/index.ts';

interface C {
  input: string;
}

/** The one evaluation of `evaluator` on one case, and the suite's verdict. */
async function evaluate(evaluator: TestEvaluator<C, string>) {
  const result = await runTestSuite<C, string>({
    id: 'mappers',
    testCases: [{ input: 'hello world' }],
    testCaseHash: ['input'],
    fn: ({ testCase }) => testCase.input,
    evaluators: [evaluator],
    quiet: true,
    setExitCode: false,
  });
  return { evaluation: result.runs[0]?.cases[0]?.evaluations[0], verdict: result.verdict };
}

// Untyped at run time, as in a JavaScript suite: the casts stand for the misspelt field.
const missing = (record: object, key: string): string =>
  (record as Record<string, unknown>)[key] as string;

describe('M4: a mapper result of the wrong type is the evaluation error', () => {
  it('BaseIsEquals with undefined on both sides fails instead of scoring 1', async () => {
    class IsEquals extends BaseIsEquals<C, string> {
      id = 'is-equals';
      testCaseMapper({ testCase }: { testCase: C }): string {
        return missing(testCase, 'expected_output');
      }
      outputMapper({ output }: { output: string }): string {
        return missing({ output }, 'answr');
      }
    }
    const { evaluation, verdict } = await evaluate(new IsEquals());
    assert.equal(
      evaluation?.error,
      'IsEquals.testCaseMapper returned undefined; expected a string',
    );
    assert.equal(evaluation?.passed, false);
    assert.equal(evaluation?.score, null);
    assert.equal(verdict, 'fail');
  });

  it('BaseIsEquals outputMapper returning a number', async () => {
    class Length extends BaseIsEquals<C, string> {
      id = 'length';
      testCaseMapper(): string {
        return '11';
      }
      outputMapper({ output }: { output: string }): string {
        return output.length as unknown as string;
      }
    }
    const { evaluation } = await evaluate(new Length());
    assert.equal(evaluation?.error, 'Length.outputMapper returned 11; expected a string');
    assert.equal(evaluation?.passed, false);
  });

  it('BaseHasAllSubstrings testCaseMapper returning a string, not a list', async () => {
    class Has extends BaseHasAllSubstrings<C, string> {
      id = 'has';
      testCaseMapper(): string[] {
        return 'hello' as unknown as string[];
      }
      outputMapper({ output }: { output: string }): string {
        return output;
      }
    }
    const { evaluation } = await evaluate(new Has());
    assert.equal(
      evaluation?.error,
      'Has.testCaseMapper returned "hello"; expected an array of strings',
    );
    assert.equal(evaluation?.passed, false);
  });

  it('BaseIsValidJSON outputMapper returning undefined', async () => {
    class Json extends BaseIsValidJSON<C, string> {
      id = 'json';
      outputMapper({ output }: { output: string }): string {
        return missing({ output }, 'body');
      }
    }
    const { evaluation } = await evaluate(new Json());
    assert.equal(evaluation?.error, 'Json.outputMapper returned undefined; expected a string');
    assert.equal(evaluation?.passed, false);
  });
});

describe('M3: BaseAssertions.evaluateAssertions returning what is not a list', () => {
  it('a string is the evaluation error, not a list read as JSON', async () => {
    class Rubric extends BaseAssertions<C, string> {
      id = 'rubric';
      evaluateAssertions(): Assertion[] {
        return 'yes' as unknown as Assertion[];
      }
    }
    const { evaluation, verdict } = await evaluate(new Rubric());
    assert.equal(
      evaluation?.error,
      'Rubric.evaluateAssertions returned "yes"; expected an array of { criterion, passed, required } (or undefined to skip the case)',
    );
    assert.equal(evaluation?.passed, false);
    assert.equal(verdict, 'fail');
  });

  it('an empty list still skips the case, as in the SDK', async () => {
    class Rubric extends BaseAssertions<C, string> {
      id = 'rubric';
      evaluateAssertions(): Assertion[] {
        return [];
      }
    }
    const { evaluation } = await evaluate(new Rubric());
    assert.equal(evaluation, undefined);
  });
});
