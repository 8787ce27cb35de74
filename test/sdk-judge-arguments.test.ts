/**
 * `runTestSuite`'s `judge` and `baselinesDir` are checked before the run, as evals.yaml's judge
 * settings are by its schema. Before, neither was: a misspelt key (`modle`) was ignored and every
 * judge call went to the default `gpt-4o` without a word; `model: 123` and `temperature: 'hot'`
 * were sent to the server as they were; a `baselinesDir` that is not a string crashed with
 * Node's own `ERR_INVALID_ARG_TYPE` from inside evalgate.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import { BaseLLMJudge, type ScoreChoice } from '../src/testing.ts';
import { UsageError } from '../src/shared/errors.ts';
import type { JudgeClient } from '../src/judge/types.ts';

interface Case {
  q: string;
}

class Judge extends BaseLLMJudge<Case, string> {
  id = 'judge';
  scoreChoices: ScoreChoice[] = [
    { name: 'Yes', value: 1 },
    { name: 'No', value: 0 },
  ];
  makePrompt(): string {
    return 'Is it good?';
  }
}

/** A client that counts its calls and never answers usefully: none may be made. */
function countingClient(calls: { n: number }): JudgeClient {
  return {
    baseUrl: 'http://127.0.0.1:9',
    chat: () => {
      calls.n++;
      return Promise.reject(new Error('no call expected'));
    },
    embed: () => {
      calls.n++;
      return Promise.reject(new Error('no call expected'));
    },
  };
}

/** The UsageError `extra` gets, asserted to come before any call of `fn` or of the judge. */
async function refusal(extra: Record<string, unknown>): Promise<UsageError> {
  const calls = { n: 0 };
  const outcome: unknown = await runTestSuite({
    id: 's',
    testCases: [{ q: 'a' }],
    testCaseHash: ['q'],
    fn: ({ testCase }: { testCase: Case }) => {
      calls.n++;
      return testCase.q;
    },
    evaluators: [new Judge()],
    quiet: true,
    setExitCode: false,
    ...extra,
  }).then(
    (result) => result,
    (error: unknown) => error,
  );
  assert.ok(outcome instanceof UsageError, `a UsageError, not ${String(outcome)}`);
  assert.equal(calls.n, 0, 'nothing ran');
  return outcome;
}

const client = countingClient({ n: 0 });

const rows: { name: string; extra: Record<string, unknown>; path: string; message: RegExp }[] = [
  {
    name: 'a misspelt key, ignored before (the calls went to gpt-4o)',
    extra: { judge: { client, modle: 'my-model' } },
    path: 'judge.modle',
    message: /judge: unknown setting modle: did you mean model\?/,
  },
  {
    name: 'a model that is not a name',
    extra: { judge: { client, model: 123 } },
    path: 'judge.model',
    message: /judge\.model must be the name of a chat model, got 123/,
  },
  {
    name: 'a temperature that is not a number from 0 to 2',
    extra: { judge: { client, temperature: 'hot' } },
    path: 'judge.temperature',
    message: /judge\.temperature must be a number from 0 to 2, got "hot"/,
  },
  {
    name: 'a cacheDir that is not a path',
    extra: { judge: { cacheDir: 5 } },
    path: 'judge.cacheDir',
    message: /judge\.cacheDir must be the path of a folder, got 5/,
  },
  {
    name: 'a client without chat',
    extra: { judge: { client: {} } },
    path: 'judge.client',
    message: /judge\.client must be a judge client \(createJudgeClient\(…\)\), got an object \{\}/,
  },
  {
    name: 'a price that is not per million tokens',
    extra: { judge: { client, prices: { 'gpt-4o': { prompt: '2.5' } } } },
    path: 'judge.prices.gpt-4o',
    message:
      /judge\.prices\.gpt-4o must be \{ prompt, completion\? \}, US dollars per million tokens/,
  },
  {
    name: "a client's options given as the client, without quoting the key",
    extra: {
      judge: { client: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-not-to-be-printed' } },
    },
    path: 'judge.client',
    message:
      /^runTestSuite\(s\): judge\.client must be a judge client \(createJudgeClient\(…\)\), got an object of baseUrl, apiKey \(the options of createJudgeClient, not a client\?\)$/,
  },
  {
    name: "an option of evals.yaml's judge that is the client's here",
    extra: { judge: { apiKey: 'sk-not-to-be-printed' } },
    path: 'judge.apiKey',
    message:
      /^runTestSuite\(s\): judge: unknown setting apiKey \(apiKey is an option of the client: pass client: createJudgeClient\(\{ apiKey, … \}\)\)$/,
  },
  {
    name: "evals.yaml's timeout, naming the client's option as createJudgeClient spells it",
    extra: { judge: { timeout: '60s' } },
    path: 'judge.timeout',
    message:
      /^runTestSuite\(s\): judge: unknown setting timeout \(timeout is an option of the client: pass client: createJudgeClient\(\{ timeoutMs, … \}\), in milliseconds\)$/,
  },
  {
    name: "evals.yaml's hostConcurrency, naming the client's option as createJudgeClient spells it",
    extra: { judge: { hostConcurrency: 2 } },
    path: 'judge.hostConcurrency',
    message:
      /^runTestSuite\(s\): judge: unknown setting hostConcurrency \(hostConcurrency is an option of the client: pass client: createJudgeClient\(\{ maxConcurrentPerHost, … \}\)\)$/,
  },
  {
    name: 'a cacheDir beside a client of your own, which it never reached (no cache was used)',
    extra: { judge: { client, cacheDir: '.evalgate/cache' } },
    path: 'judge.cacheDir',
    message:
      /^runTestSuite\(s\): judge\.cacheDir is the cache of the default client and has no effect with judge\.client: pass it to your client, client: createJudgeClient\(\{ cacheDir: "\.evalgate\/cache", … \}\), or leave judge\.client out$/,
  },
  {
    name: 'a judge that is not an object',
    extra: { judge: 'gpt-4o' },
    path: 'judge',
    message:
      /judge must be an object of judge settings \(model, embeddingModel, temperature, prices, cacheDir, client\), got "gpt-4o"/,
  },
  {
    name: 'a baselinesDir that is not a path, a crash before',
    extra: { judge: { client }, baselinesDir: 5 },
    path: 'baselinesDir',
    message: /baselinesDir must be the path of a folder, got 5/,
  },
];

describe('runTestSuite checks judge and baselinesDir before the run', () => {
  for (const row of rows) {
    it(`refuses ${row.name}`, async () => {
      const error = await refusal(row.extra);
      assert.deepEqual(
        error.issues.map((issue) => [issue.code, issue.path]),
        [['sdk.argument', row.path]],
      );
      assert.match(error.message, row.message);
    });
  }

  it('still takes every setting that is what it must be', async () => {
    const calls = { n: 0 };
    const result = await runTestSuite<Case, string>({
      id: 's',
      testCases: [{ q: 'a' }],
      testCaseHash: ['q'],
      fn: ({ testCase }) => testCase.q,
      evaluators: [new Judge()],
      judge: {
        client: countingClient(calls),
        model: 'm',
        embeddingModel: 'e',
        temperature: 0.5,
        prices: { m: { prompt: 1, completion: 2 } },
      },
      baselinesDir: '.',
      quiet: true,
      setExitCode: false,
    });
    // It ran: the judge was called (and its failure is the case's evaluation error).
    assert.equal(calls.n, 1);
    assert.equal(result.runs[0]?.cases.length, 1);
  });
});
