/**
 * A connection that drops while the body of an error answer is read (a proxy that sends `403`
 * and its headers, then closes) was a network failure as if nothing had answered: retried,
 * though a 4xx will not heal, and the status lost from the message. It now ends as that status's
 * error, which names it; a 429 or 5xx is retried as before.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJudgeClient } from 'evalgate';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

/** Requests received, by the first step of their path (`403`, `401-judge`). */
const received = new Map<string, number>();

/** Answers `/STATUS…/…` with that status, its headers and the start of a body, then hangs up. */
const served = useLoopbackServer((req, res) => {
  const step = new URL(req.url ?? '/', 'http://x').pathname.split('/')[1] ?? '';
  received.set(step, (received.get(step) ?? 0) + 1);
  req.resume();
  req.on('end', () => {
    res.writeHead(Number.parseInt(step, 10), { 'content-type': 'text/plain' });
    res.write('the start of an answer', () => res.socket?.destroy());
  });
});

async function httpCaseError(step: string): Promise<string> {
  const dir = jsonlProject(
    [{ q: 'a' }],
    ['target:', '  type: http', `  url: "${served.base}/${step}"`, '  maxRetries: 2'],
  );
  const result = await runInProcess(['run', '-o', 'results.json'], dir);
  assert.equal(result.code, 1, result.stdout + result.stderr);
  return artifactCases(dir)[0]!.cases[0]!.error ?? '';
}

describe('a connection that drops while an error answer’s body is read', () => {
  it('ends an http case as the 4xx it answered, sent once', async () => {
    const error = await httpCaseError('403');
    assert.equal(received.get('403'), 1);
    assert.match(
      error,
      /^GET http:\/\/127\.0\.0\.1:\d+\/403 answered 403, and reading its body failed \(UND_ERR_SOCKET\): other side closed$/,
    );
  });

  it('retries a 5xx, and names its status once the retries run out', async () => {
    const error = await httpCaseError('502');
    assert.equal(received.get('502'), 3);
    assert.match(error, /^GET http:\/\/127\.0\.0\.1:\d+\/502 answered 502, and reading its body/);
  });

  it('ends a judge call as the 4xx it answered, not retried', async () => {
    const client = createJudgeClient({
      baseUrl: `${served.base}/401-judge/v1`,
      apiKey: 'sk-test-key-1',
      env: {},
      maxRetries: 2,
      sleep: () => Promise.resolve(),
    });
    const result = await client.chat({ model: 'm', messages: [{ role: 'user', content: 'q' }] });
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(received.get('401-judge'), 1);
    assert.equal(result.error.code, 'judge.http');
    assert.equal(result.error.status, 401);
    assert.match(
      result.error.message,
      /\/401-judge\/v1\/chat\/completions answered 401, and reading its body failed/,
    );
  });
});
