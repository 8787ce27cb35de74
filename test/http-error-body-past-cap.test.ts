/**
 * An error answer (a 5xx, a 4xx) whose body is large (a proxy's error page, a server dumping a
 * log) was read like an answer to score, up to the 16 MiB cap, and past it the case said only
 * `the answer passed 16 MiB`: the status was lost, and a 500 or 429 was not retried. Of an error
 * answer only the start is quoted, so only the start is read; the case says what it answered.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

const MIB = 1024 * 1024;
let requests = 0;

/** Answers 500 (or 403 at `/denied`) with 17 MiB of text, written as fast as it is read. */
const server = useLoopbackServer((req, res) => {
  requests++;
  req.resume();
  req.on('end', () => {
    const status = req.url === '/denied' ? 403 : 500;
    res.writeHead(status, { 'content-type': 'text/plain' });
    const chunk = `${'upstream failed. '.repeat(4095)}\n`.slice(0, 64 * 1024);
    let sent = 0;
    const more = (): void => {
      while (sent < 17 * MIB && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end();
    };
    more();
  });
});

beforeEach(() => (requests = 0));

async function caseError(target: string[]): Promise<string> {
  const dir = jsonlProject([{ q: 'a' }], ['timeout: 8s', 'target:', ...target]);
  const result = await runInProcess(['run', '-o', 'results.json'], dir);
  assert.equal(result.code, 1, result.stdout + result.stderr);
  return artifactCases(dir)[0]!.cases[0]!.error ?? '';
}

describe('an error answer with a body past 16 MiB', () => {
  it('is an http target error naming its status, retried for a 500', async () => {
    const error = await caseError([
      '  type: http',
      `  url: "${server.base}/fails"`,
      '  maxRetries: 1',
    ]);
    assert.match(error, /^GET http:\/\/127\.0\.0\.1:\d+\/fails answered 500: upstream failed\. /);
    assert.equal(requests, 2);
  });

  it('is not retried for a 403, and still names it', async () => {
    const error = await caseError([
      '  type: http',
      `  url: "${server.base}/denied"`,
      '  maxRetries: 1',
    ]);
    assert.match(error, /^GET http:\/\/127\.0\.0\.1:\d+\/denied answered 403: upstream failed\. /);
    assert.equal(requests, 1);
  });

  it('is a model target error naming its status', async () => {
    const error = await caseError([
      '  type: model',
      '  model: m',
      '  apiKey: not-a-real-key',
      `  baseUrl: "${server.base}/v1"`,
      '  prompt: hi',
      '  maxRetries: 0',
    ]);
    assert.match(
      error,
      /^POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions answered 500: upstream/,
    );
  });
});
