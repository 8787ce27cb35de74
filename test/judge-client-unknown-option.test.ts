/**
 * `createJudgeClient` ignored an option it does not have, and used one of the wrong kind as it
 * was (`timeoutMs: '60s'` timed every attempt out at once): `baseURL` (the OpenAI SDK's spelling)
 * sent every call, and the key meant for a local server, to OPENAI_BASE_URL or OpenAI itself;
 * `timeout: 5000` (evals.yaml's name) left the 60 s default. From JavaScript, or an options
 * object built elsewhere, nothing said so. It is a UsageError naming the option and the one
 * meant, as `runTestSuite` refuses an argument it does not have.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJudgeClient } from '../src/judge/client.ts';
import { UsageError } from '../src/shared/errors.ts';

/** The message `options` are refused with. */
function refusal(options: Record<string, unknown>): string {
  let thrown: unknown;
  try {
    createJudgeClient(options);
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown instanceof UsageError, `a UsageError, not ${String(thrown)}`);
  return thrown.message;
}

describe('createJudgeClient refuses an option it does not have', () => {
  it("the OpenAI SDK's baseURL, naming baseUrl", () => {
    assert.equal(
      refusal({ baseURL: 'http://127.0.0.1:11434/v1', apiKey: 'sk-not-to-be-printed', env: {} }),
      'createJudgeClient: unknown option baseURL: did you mean baseUrl?',
    );
  });

  it("evals.yaml's timeout and hostConcurrency, naming the client's own", () => {
    assert.equal(
      refusal({ timeout: 5000, hostConcurrency: 2, env: {} }),
      'createJudgeClient: unknown option timeout: did you mean timeoutMs (in milliseconds)?; unknown option hostConcurrency: did you mean maxConcurrentPerHost?',
    );
  });

  it('any other, listing the options', () => {
    assert.match(
      refusal({ model: 'gpt-4o', env: {} }),
      /^createJudgeClient: unknown option model \(the options are baseUrl, apiKey, headers, timeoutMs, maxRetries, cacheDir, /,
    );
  });

  it('an option whose value is not of its kind, never quoting the key', () => {
    assert.equal(
      refusal({ timeoutMs: '60s', maxRetries: '3', maxConcurrentPerHost: 0, env: {} }),
      'createJudgeClient: timeoutMs must be a number of milliseconds above 0 and at most 2147483647, got "60s"; maxRetries must be a whole number of 0 or more, got "3"; maxConcurrentPerHost must be a whole number of at least 1 (or Infinity: no limit), got 0',
    );
    assert.equal(
      refusal({ baseUrl: 8080, apiKey: 12345678, cacheDir: true, env: {} }),
      'createJudgeClient: baseUrl must be a string, got 8080; cacheDir must be a string, got true; apiKey must be a string, got a number',
    );
  });

  it('but takes every option it has', () => {
    const client = createJudgeClient({
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: 'k',
      headers: {},
      timeoutMs: 1000,
      maxRetries: 0,
      cacheDir: null,
      onCacheUnwritable: () => {},
      secrets: [],
      maxConcurrentPerHost: 2,
      fetch: (input, init) => fetch(input, init),
      now: Date.now,
      random: Math.random,
      env: {},
    });
    assert.equal(client.baseUrl, 'http://127.0.0.1:9/v1');
  });
});
