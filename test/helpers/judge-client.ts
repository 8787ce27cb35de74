/**
 * Fixtures for tests of the judge client (the package's `createJudgeClient`) against the fake
 * server of judge-server.ts: a client whose backoff is recorded, a typical judge request, and
 * the error of a failed call.
 */
import assert from 'node:assert/strict';
import { createJudgeClient } from 'evalgate';
import type { ChatRequest, JudgeClientOptions, JudgeError } from 'evalgate';
import { server } from './judge-server.ts';

/** The API key the test clients send; it must never show up in errors, logs or cache files. */
export const API_KEY = 'sk-test-SECRET-4f9c2e';

/** A client against the fake whose backoff is recorded instead of slept. */
export function fakeClient(options: JudgeClientOptions = {}) {
  const waits: number[] = [];
  const client = createJudgeClient({
    baseUrl: server.url,
    apiKey: API_KEY,
    env: {},
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    random: () => 0.999,
    ...options,
  });
  return { client, waits };
}

/** A judge chat request asking `question`, forcing a call of the `grade` tool. */
export const judgeRequest = (question = 'Is Paris the capital of France?'): ChatRequest => ({
  model: 'judge-small',
  messages: [
    { role: 'system', content: 'You grade answers.' },
    { role: 'user', content: question },
  ],
  tools: [
    {
      type: 'function',
      function: {
        name: 'grade',
        parameters: { type: 'object', properties: { choice: { type: 'string' } } },
      },
    },
  ],
  tool_choice: { type: 'function', function: { name: 'grade' } },
});

/** The error of a call that must have failed. */
export function failure(result: { ok: true } | { ok: false; error: JudgeError }): JudgeError {
  assert.equal(result.ok, false, 'expected a failed call');
  return (result as { error: JudgeError }).error;
}
