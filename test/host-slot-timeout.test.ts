/**
 * A call whose time runs out while it still waits for a slot under `defaults.judge.hostConcurrency`
 * (every slot to that host held by another call) sent nothing: its error must say so and name the
 * request it was waiting to send, as a time-out during a request names that request, rather than
 * a bare `timed out after …`. The wait counts against the suite's (or evaluator's) `timeout`.
 * The model target and an LLM judge, secrets in the URL masked.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

/**
 * Answers a chat completion at once, except a request that holds `HOLD` (a judge's prompt):
 * that one is taken and never answered (the server's `after` hook closes it), so it holds its
 * slot; one that holds `DELAY` is answered after 300 ms, and one that holds `SLOW` gets a judge's
 * verdict after 400 ms.
 */
const server = useLoopbackServer((request, response) => {
  let text = '';
  request.on('data', (chunk: Buffer) => (text += chunk.toString()));
  request.on('end', () => {
    if (text.includes('HOLD')) return;
    response.setHeader('content-type', 'application/json');
    if (!text.includes('SLOW')) {
      const answer = { choices: [{ message: { role: 'assistant', content: 'ok' } }] };
      const delay = text.includes('DELAY') ? 300 : 0;
      setTimeout(() => response.end(JSON.stringify(answer)), delay);
      return;
    }
    const verdict = { choice: 'yes', reason: 'fine' };
    const call = {
      id: 'c',
      type: 'function',
      function: { name: 'verdict', arguments: JSON.stringify(verdict) },
    };
    const message = { role: 'assistant', content: null, tool_calls: [call] };
    setTimeout(() => response.end(JSON.stringify({ choices: [{ message }] })), 400);
  });
});

const TOKEN = 'tok-slot-1122334455';

async function run(dir: string): Promise<ReturnType<typeof artifactCases>[number]['cases']> {
  // No cache: its look-up before each call could change the order calls queue for the slot in.
  const done = await runInProcess(['run', '--no-cache', '-o', 'results.json'], dir, {
    OPENAI_API_KEY: 'sk-test',
    SLOT_TOKEN: TOKEN,
  });
  assert.equal(done.code, 1, done.stdout + done.stderr);
  assert.ok(!(done.stdout + done.stderr).includes(TOKEN), done.stdout + done.stderr);
  return artifactCases(dir)[0]!.cases;
}

const slot = (): string =>
  `a free slot to ${new URL(server.base).host} (hostConcurrency: 1, all taken by other calls)`;

describe('a time-out while waiting for a per-host slot', () => {
  it('the model target says it waited for a slot to the host and names the request', async () => {
    // Rows a and b start together; a's judge queues for the only slot while b's answer takes
    // 300 ms, then holds it (its own timeout 2 s); b, not judged, ends, and c's target call
    // waits behind the judge past the suite's 1000 ms.
    const dir = jsonlProject(
      [{ q: 'a', __tags__: ['judged'] }, { q: 'DELAY b' }, { q: 'c' }],
      [
        'concurrency: 2',
        'target:',
        '  type: model',
        '  model: m',
        '  prompt: "{{ case.q }}"',
        `  baseUrl: "${server.base}/v1?api-version=\${SLOT_TOKEN}"`,
        'evaluators:',
        '  - use: llm-judge',
        '    when: { tags: [judged] }',
        '    timeout: 2000ms',
        `    judge: { model: m, baseUrl: "${server.base}/v1" }`,
        '    with: { prompt: "HOLD {{ output }}", choices: { "yes": 1, "no": 0 } }',
      ],
      {},
      ['defaults: { timeout: 1000ms, judge: { hostConcurrency: 1 } }'],
    );
    const cases = await run(dir);
    const url = `${server.base}/v1/chat/completions?api-version=[redacted]`;
    assert.equal(
      cases[2]?.error,
      `timed out after 1000 ms while waiting for ${slot()} to send POST ${url}`,
      JSON.stringify(cases, null, 1),
    );
    assert.equal(
      cases[0]?.evaluations[0]?.error,
      `timed out after 2000 ms while waiting for POST ${server.base}/v1/chat/completions`,
    );
  });

  it('an LLM judge says it waited for a slot to the host and names the request', async () => {
    // Both judges start together; the first holds the only slot past the second's 1000 ms.
    const judge = (id: string, timeout: string): string[] => [
      '  - use: llm-judge',
      `    id: ${id}`,
      `    timeout: ${timeout}`,
      `    judge: { model: m, baseUrl: "${server.base}/v1?k=\${SLOT_TOKEN}" }`,
      '    with: { prompt: "HOLD {{ output }}", choices: { "yes": 1, "no": 0 } }',
    ];
    const dir = jsonlProject(
      [{ q: 'a', output: 'y' }],
      ['evaluators:', ...judge('holder', '2000ms'), ...judge('waiter', '1000ms')],
      {},
      ['defaults: { judge: { hostConcurrency: 1 } }'],
    );
    const [holder, waiter] = (await run(dir))[0]!.evaluations;
    const url = `${server.base}/v1/chat/completions?k=[redacted]`;
    assert.equal(
      waiter?.error,
      `timed out after 1000 ms while waiting for ${slot()} to send POST ${url}`,
    );
    assert.equal(holder?.error, `timed out after 2000 ms while waiting for POST ${url}`);
  });

  it("the wait does not count against a judge's own timeout, which limits each request", async () => {
    // Each answer takes 400 ms; the third judge waits 800 ms for the slot, then 400 ms for its
    // answer: past its 900 ms per request only if the wait counted.
    const judge = (id: string): string[] => [
      '  - use: llm-judge',
      `    id: ${id}`,
      `    judge: { model: m, baseUrl: "${server.base}/v1", timeout: 900ms, maxRetries: 0 }`,
      '    with: { prompt: "SLOW {{ output }}", choices: { "yes": 1, "no": 0 } }',
    ];
    const dir = jsonlProject(
      [{ q: 'a', output: 'y' }],
      ['evaluators:', ...judge('first'), ...judge('second'), ...judge('third')],
      {},
      ['defaults: { judge: { hostConcurrency: 1 } }'],
    );
    const done = await runInProcess(['run', '--no-cache', '-o', 'results.json'], dir, {
      OPENAI_API_KEY: 'sk-test',
    });
    const evaluations = artifactCases(dir)[0]!.cases[0]!.evaluations;
    assert.deepEqual(
      evaluations.map((e) => [e.error, e.score]),
      [
        [null, 1],
        [null, 1],
        [null, 1],
      ],
      done.stdout + done.stderr,
    );
    assert.equal(done.code, 0, done.stdout + done.stderr);
  });
});
