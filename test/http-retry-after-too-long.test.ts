/**
 * An http target given a `Retry-After` longer than any run waits (a daily quota's 3600 s) gives
 * up at once, as the model target and the judges do; its case error said only `answered 429:
 * …`, so it read as if `maxRetries` and `Retry-After` had been ignored. It says why now, as the
 * model target's does.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

let requests = 0;
const server = useLoopbackServer((req, res) => {
  requests++;
  req.resume();
  req.on('end', () => res.writeHead(429, { 'retry-after': '3600' }).end('daily quota used'));
});

describe('an http target asked to wait past the limit', () => {
  it('gives up at once and says the server asked for too long a wait', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      ['timeout: 5s', 'target:', '  type: http', `  url: "${server.base}/answer"`],
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.equal(requests, 1);
    assert.equal(
      artifactCases(dir)[0]!.cases[0]!.error,
      `GET ${server.base}/answer answered 429: daily quota used; the server asked to wait 3600 s, more than 120 s`,
    );
  });
});
