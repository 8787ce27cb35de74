/**
 * A judge's or a model target's per-attempt `timeout` passing while the body of an error answer
 * stalls (a proxy sends `403` and its headers, then hangs) was a plain time-out: retried, though
 * a 400, 401, 403 or 404 will not heal, and worded as if nothing had answered. It now ends as the
 * status's error, naming the status as a case's time-out does; a 429 or 5xx is retried as before.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createJudgeClient } from 'evalgate';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

/** Requests received, by the first step of their path (`403`, `401-model`). */
const received = new Map<string, number>();

/**
 * Answers `/STATUS…/…` with that status, its headers and the start of a body, then stalls until
 * the client gives up (the server's `after` hook closes what is left open).
 */
const served = useLoopbackServer((req, res) => {
  const step = new URL(req.url ?? '/', 'http://x').pathname.split('/')[1] ?? '';
  received.set(step, (received.get(step) ?? 0) + 1);
  req.resume();
  if (step === 'warm') {
    res.end('{}');
    return;
  }
  const status = Number.parseInt(step, 10);
  req.on('end', () => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.write('{"error": {"message": "');
  });
});

const noWait = (): Promise<void> => Promise.resolve();

/**
 * The attempt's time limit: long enough for the status to come first on a loaded machine, since
 * a limit that passes before it is a plain time-out, rightly retried.
 */
const LIMIT_MS = 400;

/** One judge call to the path that answers `status` and stalls, with two retries allowed. */
function stalledCall(status: number): ReturnType<ReturnType<typeof createJudgeClient>['chat']> {
  const client = createJudgeClient({
    baseUrl: `${served.base}/${status}/v1`,
    apiKey: 'sk-test-key-1',
    env: {},
    timeoutMs: LIMIT_MS,
    maxRetries: 2,
    sleep: noWait,
  });
  return client.chat({ model: 'm', messages: [{ role: 'user', content: 'q' }] });
}

describe('a per-attempt timeout while an error answer stalls its body', () => {
  // The first request of a process loads Node's fetch, which could take much of a short limit.
  before(async () => {
    await (await fetch(`${served.base}/warm`)).text();
  });

  it('ends a judge call as the 4xx it answered, not retried', async () => {
    for (const status of [400, 401, 403, 404]) {
      const result = await stalledCall(status);
      if (result.ok) return assert.fail('the call succeeded');
      assert.equal(received.get(String(status)), 1, `${status} was sent again`);
      assert.equal(result.error.code, 'judge.http');
      assert.equal(result.error.status, status);
      assert.equal(result.error.attempts, 1);
      assert.match(
        result.error.message,
        new RegExp(
          `^timed out after ${LIMIT_MS} ms while waiting for the body of POST http://127\\.0\\.0\\.1:\\d+/${status}/v1/chat/completions, which answered ${status}$`,
        ),
      );
    }
  });

  it('retries a 429 or a 5xx, and names its status once the retries run out', async () => {
    for (const status of [429, 503]) {
      const result = await stalledCall(status);
      if (result.ok) return assert.fail('the call succeeded');
      assert.equal(received.get(String(status)), 3);
      assert.equal(result.error.status, status);
      assert.equal(result.error.attempts, 3);
      assert.match(
        result.error.message,
        new RegExp(`, which answered ${status}; after 3 attempts$`),
      );
    }
  });

  it("ends a model target's case as the 4xx it answered, sent once", async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      [
        'timeout: 5s',
        'target:',
        '  type: model',
        '  model: m',
        `  baseUrl: ${served.base}/401-model/v1`,
        '  apiKey: sk-test-key-1',
        '  prompt: "{{ case.q }}"',
        `  timeout: ${LIMIT_MS}ms`,
        '  maxRetries: 3',
        'evaluators: [ { use: contains, with: { values: [x] } } ]',
      ],
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.equal(received.get('401-model'), 1);
    assert.match(
      artifactCases(dir)[0]!.cases[0]!.error ?? '',
      new RegExp(
        `^timed out after ${LIMIT_MS} ms while waiting for the body of POST http://127\\.0\\.0\\.1:\\d+/401-model/v1/chat/completions, which answered 401$`,
      ),
    );
  });
});
