/**
 * The optional `userInputMapper` of `BaseRagasLLMContextPrecisionWithReference`,
 * `BaseRagasLLMContextRecall` and `BaseRagasNoiseSensitivity` was used unchecked: returning
 * `undefined` (a misspelt field) judged the case with no question, and a number was sent as the
 * question. Like every other mapper's, a value other than a string is that evaluation's error,
 * before any model call.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJudgeClient } from '../src/judge/client.ts';
import {
  BaseRagasLLMContextPrecisionWithReference,
  BaseRagasLLMContextRecall,
  BaseRagasNoiseSensitivity,
  runTestSuite,
  type TestEvaluator,
} from 'evalgate/testing';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

interface TestCase {
  question: string;
  expectedAnswer: string;
}

interface Output {
  answer: string;
  contexts: string[];
}

/** What the misspelt field gives: `testCase.qestion`. */
const misspelt = ({ testCase }: { testCase: TestCase }): string =>
  (testCase as unknown as Record<string, string>).qestion as string;

class Precision extends BaseRagasLLMContextPrecisionWithReference<TestCase, Output> {
  id = 'precision';
  override userInputMapper = misspelt;
  retrievedContextsMapper({ output }: { output: Output }): string[] {
    return output.contexts;
  }
  referenceMapper({ testCase }: { testCase: TestCase }): string {
    return testCase.expectedAnswer;
  }
}

class Recall extends BaseRagasLLMContextRecall<TestCase, Output> {
  id = 'recall';
  override userInputMapper = misspelt;
  retrievedContextsMapper({ output }: { output: Output }): string[] {
    return output.contexts;
  }
  referenceMapper({ testCase }: { testCase: TestCase }): string {
    return testCase.expectedAnswer;
  }
}

class Noise extends BaseRagasNoiseSensitivity<TestCase, Output> {
  id = 'noise';
  override userInputMapper = (): string => 42 as unknown as string;
  responseMapper({ output }: { output: Output }): string {
    return output.answer;
  }
  referenceMapper({ testCase }: { testCase: TestCase }): string {
    return testCase.expectedAnswer;
  }
  retrievedContextsMapper({ output }: { output: Output }): string[] {
    return output.contexts;
  }
}

describe('an optional userInputMapper of a Ragas class', () => {
  it('returning anything but a string is the evaluation error, with no model call', async () => {
    const result = await runTestSuite<TestCase, Output>({
      id: 's',
      testCases: [{ question: 'How tall is the Eiffel Tower?', expectedAnswer: '300 meters' }],
      testCaseHash: ['question'],
      fn: () => ({ answer: '300 meters', contexts: ['The Eiffel tower stands 300 meters tall.'] }),
      evaluators: [new Precision(), new Recall(), new Noise()] as TestEvaluator<TestCase, Output>[],
      judge: { client: createJudgeClient({ baseUrl: server.url, env: {} }), model: 'm' },
      quiet: true,
      setExitCode: false,
    });
    const errors = result.runs[0]?.cases[0]?.evaluations.map((e) => [e.evaluator, e.error]);
    assert.deepEqual(errors, [
      ['precision', 'Precision.userInputMapper returned undefined; expected a string'],
      ['recall', 'Recall.userInputMapper returned undefined; expected a string'],
      ['noise', 'Noise.userInputMapper returned 42; expected a string'],
    ]);
    assert.equal(result.verdict, 'fail');
    assert.equal(server.requests.length, 0);
  });
});
