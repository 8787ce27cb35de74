/**
 * `mode` of `BaseRagasFactualCorrectness` and `BaseRagasNoiseSensitivity` is a setting of the
 * class, known before the run, yet a misspelt one (`'F1'`, `'relevent'`) was found only by each
 * case, every case erroring. It is one UsageError before any case runs, naming the evaluator,
 * what was expected and what was found.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJudgeClient } from '../src/judge/client.ts';
import {
  BaseRagasFactualCorrectness,
  BaseRagasNoiseSensitivity,
  runTestSuite,
  type TestEvaluator,
} from 'evalgate/testing';
import { UsageError } from '../src/shared/errors.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

interface Case {
  q: string;
}

class Factual extends BaseRagasFactualCorrectness<Case, string> {
  id = 'factual';
  override mode = 'F1' as unknown as 'f1';
  responseMapper({ output }: { output: string }): string {
    return output;
  }
  referenceMapper({ testCase }: { testCase: Case }): string {
    return testCase.q;
  }
}

class Noise extends BaseRagasNoiseSensitivity<Case, string> {
  id = 'noise';
  override mode = 'relevent' as unknown as 'relevant';
  responseMapper({ output }: { output: string }): string {
    return output;
  }
  referenceMapper({ testCase }: { testCase: Case }): string {
    return testCase.q;
  }
  retrievedContextsMapper(): string[] {
    return ['a context'];
  }
}

describe('a Ragas class with a bad mode', () => {
  it('is refused once before any case runs, saying what was expected and found', async () => {
    let calls = 0;
    const error: unknown = await runTestSuite<Case, string>({
      id: 's',
      testCases: [{ q: 'a' }, { q: 'b' }],
      testCaseHash: ['q'],
      fn: ({ testCase }) => {
        calls++;
        return testCase.q;
      },
      evaluators: [new Factual(), new Noise()] as TestEvaluator<Case, string>[],
      judge: { client: createJudgeClient({ baseUrl: server.url, apiKey: 'k', maxRetries: 0 }) },
    }).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    assert.ok(error instanceof UsageError, `expected a UsageError, got ${String(error)}`);
    assert.equal(calls, 0);
    assert.equal(server.requests.length, 0);
    assert.match(
      error.message,
      /evaluators\[0\] \(Factual\): option "mode" must be one of "f1", "precision", "recall", found "F1"/,
    );
    assert.match(
      error.message,
      /evaluators\[1\] \(Noise\): option "mode" must be one of "relevant", "irrelevant", found "relevent"/,
    );
  });
});
