/**
 * A call that fetch refuses before sending anything (a URL on a port fetch blocks, such as 9)
 * never left the process: it is the evaluation's (or the case's) error, not a model call. The
 * usage and the summary count only the calls that reached a server, here the loopback
 * OpenAI-compatible one.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createJudgeClient } from '../src/judge/client.ts';
import { callUsage } from '../src/judge/usage.ts';
import type { Usage } from '../src/types/index.ts';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

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

  it('a run counts only the judge that reached its server', async () => {
    const dir = jsonlProject(
      [
        { id: 'a', output: 'one' },
        { id: 'b', output: 'two' },
      ],
      [
        'hash: [id]',
        'evaluators:',
        '  - id: reached',
        '    use: llm-judge',
        `    judge: { model: fake, baseUrl: "${server.url}", apiKey: sk-a, maxRetries: 0 }`,
        '    with: { prompt: "Is {{output}} good?", choices: { "A": 1, "B": 0 } }',
        '  - id: refused',
        '    use: llm-judge',
        `    judge: { model: fake, baseUrl: "${BLOCKED}", apiKey: sk-b, maxRetries: 0 }`,
        '    with: { prompt: "Is {{output}} good?", choices: { "A": 1, "B": 0 } }',
      ],
    );
    const run = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir, {});
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.equal(server.requests.length, 2);
    for (const c of artifactCases(dir)[0]!.cases) {
      const refused = c.evaluations.find((e) => e.evaluator === 'refused');
      assert.match(refused?.error ?? '', /bad port/, 'the refusal is the evaluation error');
    }
    const artifact = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
      usage?: Usage;
    };
    assert.equal(artifact.usage?.calls, 2, 'only the two calls that reached a server');
    assert.match(run.stdout, /model calls: 2\b/);
  });

  it('a model target on a blocked port is a case error with no call', async () => {
    const dir = jsonlProject(
      [{ q: 'hello' }],
      [
        'target:',
        '  type: model',
        '  model: small',
        `  baseUrl: ${BLOCKED}`,
        '  apiKey: sk-test',
        '  prompt: "{{case.q}}"',
        'evaluators: [ { use: contains, with: { values: ["x"] } } ]',
      ],
    );
    const run = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir, {});
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const c = artifactCases(dir)[0]!.cases[0]!;
    assert.match(c.error ?? '', /bad port/);
    assert.equal(c.usage?.calls ?? 0, 0, 'nothing was sent');
    assert.doesNotMatch(run.stdout, /model calls: 1\b/);
  });
});
