/**
 * A target that cannot reach its server says what the system's error code means, after the code
 * and the address: `connect ECONNREFUSED 127.0.0.1:PORT` alone names the address but not what to
 * check. An http target and a model target against a loopback port on which nothing listens.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { freePort } from './helpers/free-port.ts';

let closed = '';
before(async () => {
  closed = `http://127.0.0.1:${await freePort()}`;
});

const REFUSED =
  /failed \(ECONNREFUSED\): connect ECONNREFUSED 127\.0\.0\.1:\d+; nothing accepts connections there: is the server running, on that host and port\?$/;

async function onlyError(suite: string[]): Promise<string> {
  const dir = jsonlProject([{ q: 'a' }], suite);
  const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
  assert.equal(result.code, 1, result.stdout + result.stderr);
  return artifactCases(dir)[0]!.cases[0]!.error ?? '';
}

describe('a refused connection', () => {
  it("is explained in an http target's case error", async () => {
    const error = await onlyError([
      'target:',
      '  type: http',
      `  url: ${closed}/ask`,
      '  maxRetries: 0',
    ]);
    assert.match(error, /^GET http:\/\/127\.0\.0\.1:\d+\/ask /);
    assert.match(error, REFUSED);
  });

  it("is explained in a model target's case error", async () => {
    const error = await onlyError([
      'target:',
      '  type: model',
      '  model: m',
      `  baseUrl: ${closed}/v1`,
      '  apiKey: sk-test-key',
      '  prompt: hi',
      '  maxRetries: 0',
    ]);
    assert.match(error, /^POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions /);
    assert.match(error, REFUSED);
  });
});
