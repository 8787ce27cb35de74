/**
 * The out-of-box classes call their mappers with one object (`evaluateAssertions({ testCase,
 * output })`), as the Autoblocks TypeScript SDK does. Ported from the Python SDK as written
 * (`evaluateAssertions(testCase, output)`), a mapper got that object as its test case and
 * `undefined` as its output: seed 003's rubric (`if (testCase.assertions == null) return []`)
 * then skipped every case, and the suite passed though a required assertion failed; a
 * `makePrompt(testCase, output, recentOverrides)` sent the judge a prompt about `undefined`.
 * Such a method is refused before any case, as `evaluateTestCase(testCase, output)` is.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import { createJudgeClient } from '../src/judge/client.ts';
import { BaseAssertions, BaseLLMJudge, type ScoreChoice } from '../src/testing.ts';
import type { Assertion } from '../src/types/index.ts';
import { UsageError } from '../src/shared/errors.ts';

interface Case {
  input: string;
  assertions?: { criterion: string; required: boolean }[];
}

class Rubric extends BaseAssertions<Case, string> {
  id = 'assertions';
  // The Python SDK's signature, ported as it is (from JavaScript, or typed loosely).
  evaluateAssertions(testCase: unknown, output?: string): Assertion[] {
    const { assertions } = testCase as Case;
    if (assertions == null) return [];
    return assertions.map((a) => ({
      criterion: a.criterion,
      passed: (output ?? '').includes(a.criterion),
      required: a.required,
    }));
  }
}

class IsFriendly extends BaseLLMJudge<Case, string> {
  id = 'is-friendly';
  scoreChoices: ScoreChoice[] = [
    { name: 'Friendly', value: 1 },
    { name: 'Not friendly', value: 0 },
  ];
  makePrompt(testCase: unknown, output?: string, recentOverrides?: unknown[]): string {
    return `Is the output friendly? ${String(output)} (${String(recentOverrides)})`;
  }
}

async function refusal(evaluators: unknown[]): Promise<string> {
  let calls = 0;
  const error: unknown = await runTestSuite<Case, string>({
    id: 's',
    testCases: [{ input: 'hello world', assertions: [{ criterion: 'bye', required: true }] }],
    testCaseHash: ['input'],
    fn: ({ testCase }) => {
      calls++;
      return testCase.input;
    },
    evaluators: evaluators as Rubric[],
    judge: { client: createJudgeClient({ baseUrl: 'http://127.0.0.1:8080/v1', env: {} }) },
    quiet: true,
    setExitCode: false,
  }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  assert.ok(error instanceof UsageError, `a UsageError, not ${String(error)}`);
  assert.equal(calls, 0, 'no case ran');
  return error.message;
}

describe("an out-of-box class's mapper written the Python SDK's way", () => {
  it('evaluateAssertions(testCase, output) is refused, not a skipped case and a pass', async () => {
    assert.equal(
      await refusal([new Rubric()]),
      'runTestSuite(s): evaluators[0] (Rubric): Rubric.evaluateAssertions declares 2 parameters, like the Python SDK, but it is called with one object: write evaluateAssertions({ testCase, output }) (as it is, its output would be undefined)',
    );
  });

  it('makePrompt(testCase, output, recentOverrides) is refused', async () => {
    assert.equal(
      await refusal([new IsFriendly()]),
      'runTestSuite(s): evaluators[0] (IsFriendly): IsFriendly.makePrompt declares 3 parameters, like the Python SDK, but it is called with one object: write makePrompt({ testCase, output, recentOverrides }) (as it is, its output would be undefined)',
    );
  });
});
