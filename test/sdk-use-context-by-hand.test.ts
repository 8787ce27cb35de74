/**
 * `useContext`, evalgate's own member of the SDK's out-of-box classes (docs/coming-from.md): it
 * gives one instance its judge, so `evaluateTestCase` can be called by hand outside any run, as a
 * unit test of the class does. The judge answers from the loopback OpenAI-compatible server.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJudgeClient } from '../src/judge/client.ts';
import { BaseLLMJudge, type ScoreChoice } from '../src/testing.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

class Friendly extends BaseLLMJudge<{ q: string }, string> {
  id = 'friendly';
  scoreChoices: ScoreChoice[] = [
    { name: 'Yes', value: 1 },
    { name: 'No', value: 0 },
  ];
  override threshold = { gte: 1 };
  makePrompt({ output }: { output: string }): string {
    return `Is this friendly? ${output}`;
  }
}

describe('useContext on an out-of-box class', () => {
  it('lets evaluateTestCase be called by hand, judged by the client and model it was given', async () => {
    server.setResponder(() => ({ toolArguments: { reason: 'warm', choice: 'Yes' } }));
    const judge = new Friendly();
    judge.useContext({
      judge: {
        client: createJudgeClient({
          baseUrl: server.url,
          apiKey: 'sk-test',
          cacheDir: null,
          env: {},
        }),
        model: 'by-hand-model',
        embeddingModel: undefined,
        temperature: 0,
        prices: undefined,
      },
    });
    const evaluation = await judge.evaluateTestCase({
      testCase: { q: 'hi' },
      output: 'hello there!',
      params: {},
      durationMs: 0,
      signal: new AbortController().signal,
    });
    assert.equal(evaluation?.score, 1);
    assert.deepEqual(evaluation?.threshold, { gte: 1 });
    assert.deepEqual(
      server.requests.map((r) => (r.body as { model: string }).model),
      ['by-hand-model'],
    );
  });
});
