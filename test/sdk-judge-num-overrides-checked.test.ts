/**
 * `numOverrides` of an SDK judge class asks for that many recent human overrides as examples.
 * A value that is no count (`Number(process.env.N)` unset: NaN, a negative, 1.5, the string
 * "3") was taken without a word: NaN or -1 gave no examples, so the judge ran without the
 * overrides the suite asked for. It is one UsageError before any case, as a bad `mode` is; so
 * is a `model` field that names no model (`''`, `123`), which every case sent to the API.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJudgeClient } from '../src/judge/client.ts';
import { BaseLLMJudge, runTestSuite, type ScoreChoice, type TestEvaluator } from 'evalgate/testing';
import { UsageError } from '../src/shared/errors.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

interface Case {
  q: string;
}

function judge(numOverrides: unknown, model?: unknown): TestEvaluator<Case, string> {
  class Friendly extends BaseLLMJudge<Case, string> {
    id = 'friendly';
    override numOverrides = numOverrides as number;
    override model = model as string;
    scoreChoices: ScoreChoice[] = [
      { name: 'yes', value: 1 },
      { name: 'no', value: 0 },
    ];
    makePrompt({ output }: { output: string }): string {
      return `Is this friendly? ${output}`;
    }
  }
  return new Friendly();
}

async function outcome(numOverrides: unknown, model?: unknown): Promise<unknown> {
  return runTestSuite<Case, string>({
    id: 's',
    testCases: [{ q: 'a' }],
    testCaseHash: ['q'],
    fn: ({ testCase }) => testCase.q,
    evaluators: [judge(numOverrides, model)],
    judge: { client: createJudgeClient({ baseUrl: server.url, apiKey: 'k', maxRetries: 0 }) },
    quiet: true,
    setExitCode: false,
  }).then(
    () => null,
    (thrown: unknown) => thrown,
  );
}

describe('BaseLLMJudge numOverrides that is no count', () => {
  for (const [value, found] of [
    [Number.NaN, 'NaN'],
    [-1, '-1'],
    [1.5, '1.5'],
    ['3', '"3"'],
  ] as const) {
    it(`${found}: refused before any case, naming what was found`, async () => {
      const error = await outcome(value);
      assert.ok(error instanceof UsageError, `expected a UsageError, got ${String(error)}`);
      assert.equal(server.requests.length, 0);
      assert.ok(
        error.message.includes(
          `evaluators[0] (Friendly): numOverrides must be a whole number of at least 0, got ${found}`,
        ),
        error.message,
      );
    });
  }

  it('0 and a whole number are taken (no overrides stored: no examples)', async () => {
    for (const value of [0, 2]) assert.equal(await outcome(value), null);
  });

  for (const [model, found] of [
    ['', '""'],
    [123, '123'],
  ] as const) {
    it(`a model ${found}: refused before any case, as judge.model is`, async () => {
      const error = await outcome(undefined, model);
      assert.ok(error instanceof UsageError, `expected a UsageError, got ${String(error)}`);
      assert.equal(server.requests.length, 0);
      assert.ok(
        error.message.includes(
          `evaluators[0] (Friendly): model must be the name of a chat model, got ${found}`,
        ),
        error.message,
      );
    });
  }
});
