/**
 * A `Retry-After` longer than what is left of the call's time limit cannot be honoured: the
 * wait would end in the time-out, whose message hides the server's answer. The http target, the
 * model target and a judge (one retry loop) fail at once instead, saying how long the server
 * asked to wait and how much of the limit was left, after one request.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

let requests = 0;
/** Answers every request 429, asking for a wait of 30 s. */
const server = useLoopbackServer((req, res) => {
  requests++;
  req.resume();
  req.on('end', () => {
    res
      .writeHead(429, { 'retry-after': '30', 'content-type': 'application/json' })
      .end('{"error": {"message": "slow down"}}');
  });
});

beforeEach(() => (requests = 0));

/** `the server asked to wait 30 s, more than the 2.9 s left of the 3 s time limit`. */
const GAVE_UP =
  /; the server asked to wait 30 s, more than the [0-2](\.\d)? s left of the 3 s time limit$/;

async function run(suite: string[], rows: Record<string, unknown>[] = [{ q: 'a' }]) {
  const dir = jsonlProject(rows, ['timeout: 3s', ...suite]);
  const result = await runInProcess(['run', '-o', 'results.json'], dir);
  assert.equal(result.code, 1, result.stdout + result.stderr);
  return artifactCases(dir)[0]!.cases[0]!;
}

describe('a Retry-After longer than the time left', () => {
  it('fails an http target case at once, naming both waits', async () => {
    const c = await run(['target:', '  type: http', `  url: "${server.base}/answer"`]);
    assert.match(c.error ?? '', /^GET http:\/\/127\.0\.0\.1:\d+\/answer answered 429: /);
    assert.match(c.error ?? '', GAVE_UP);
    assert.equal(requests, 1);
  });

  it('fails a model target case at once, naming both waits', async () => {
    const c = await run([
      'target:',
      '  type: model',
      '  model: m',
      `  baseUrl: ${server.base}/v1`,
      '  apiKey: sk-test-key',
      '  prompt: "{{ case.q }}"',
    ]);
    assert.match(c.error ?? '', /answered 429: slow down/);
    assert.match(c.error ?? '', GAVE_UP);
    assert.equal(requests, 1);
  });

  it("fails a judge's evaluation at once, naming both waits", async () => {
    const c = await run(
      [
        'evaluators:',
        '  - use: llm-judge',
        `    judge: { model: m, baseUrl: "${server.base}/v1", apiKey: sk-test-key }`,
        '    with:',
        '      prompt: "Is {{ output }} fine?"',
        '      choices: { "yes": 1, "no": 0 }',
      ],
      [{ q: 'a', output: 'fine' }],
    );
    const error = c.evaluations[0]?.error ?? '';
    assert.match(error, /answered 429: slow down/);
    assert.match(error, GAVE_UP);
    assert.equal(requests, 1);
  });
});
