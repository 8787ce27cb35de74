/**
 * A call that fetch refuses before sending anything (a URL on a port fetch blocks, such as 9)
 * never left the process: it is the evaluation's error, not a model call. The usage and the
 * summary count only the calls that reached a server (here none: the loopback
 * OpenAI-compatible server gets nothing). evals.yaml refuses such a URL at load.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJudgeClient } from '../src/judge/client.ts';
import type { JudgeClient } from '../src/judge/types.ts';
import { callUsage } from '../src/judge/usage.ts';
import { BaseLLMJudge, runTestSuite } from 'evalgate/testing';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

/** A judge class for `runTestSuite`, its client on the blocked port. */
class Refused extends BaseLLMJudge<{ q: string }, string> {
  id = 'refused';
  scoreChoices = [
    { name: 'A', value: 1 },
    { name: 'B', value: 0 },
  ];
  makePrompt({ output }: { output: string }): string {
    return `Is ${output} good?`;
  }
}

/** Port 9 is on fetch's list of blocked ports: it refuses the request before connecting. */
const BLOCKED = 'http://127.0.0.1:9/v1';

describe('a call fetch refuses before sending is an error, not a model call', () => {
  it('the client reports it with no attempt, and its usage is none', async () => {
    const client = createJudgeClient({ baseUrl: BLOCKED, apiKey: 'sk-x', maxRetries: 2 });
    const result = await client.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(result.ok, false);
    assert.match(!result.ok ? result.error.message : '', /bad port/);
    assert.equal(!result.ok && result.error.attempts, 0);
    const usage = callUsage(result, 'm', undefined);
    assert.equal(usage.calls, 0);
    assert.equal(usage.latencyMs, 0);
  });

  it('a run counts no model call for a judge whose every call was refused', async () => {
    // evals.yaml refuses a blocked port at load (config-url-bad-port.test.ts), and runTestSuite
    // a client createJudgeClient made (sdk-judge-base-url.test.ts); one written by hand is not
    // checked before it calls, so this one hands its calls to such a client.
    const blocked = createJudgeClient({ baseUrl: BLOCKED, apiKey: 'sk-b', maxRetries: 0, env: {} });
    const client: JudgeClient = {
      baseUrl: blocked.baseUrl,
      chat: (request, options) => blocked.chat(request, options),
      embed: (texts, model, options) => blocked.embed(texts, model, options),
    };
    const result = await runTestSuite<{ q: string }, string>({
      id: 'refused',
      testCases: [{ q: 'a' }, { q: 'b' }],
      testCaseHash: ['q'],
      fn: ({ testCase }) => testCase.q,
      evaluators: [new Refused()],
      judge: {
        client,
        model: 'fake',
      },
      quiet: true,
      setExitCode: false,
    });
    const run = result.runs[0]!;
    for (const c of run.cases) {
      assert.match(
        c.evaluations[0]?.error ?? '',
        /bad port/,
        'the refusal is the evaluation error',
      );
      assert.equal(c.evaluations[0]?.usage?.calls ?? 0, 0);
    }
    assert.equal(run.summary.usage?.calls ?? 0, 0, 'no call reached a server');
    assert.equal(server.requests.length, 0);
  });
});
