/**
 * An answer whose body stalls (a proxy that sends its status line and headers, then hangs) ended
 * the case as `timed out after N ms while waiting for GET …`, as if the server had not answered:
 * the status it had already given (a 403, a 502) was lost. The case now says what it answered.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

/** Sends the status and the start of a body, then nothing more until the client gives up. */
const server = useLoopbackServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const status = Number(new URL(req.url ?? '/', 'http://x').pathname.slice(1));
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.write('the start of an answer');
  });
});

async function caseError(status: number): Promise<string> {
  const dir = jsonlProject(
    [{ q: 'a' }],
    [
      'timeout: 1s',
      'target:',
      '  type: http',
      `  url: "${server.base}/${status}"`,
      '  maxRetries: 0',
    ],
  );
  const result = await runInProcess(['run', '-o', 'results.json'], dir);
  assert.equal(result.code, 1, result.stdout + result.stderr);
  return artifactCases(dir)[0]!.cases[0]!.error ?? '';
}

describe('an answer whose body stalls', () => {
  it('names the status it came with when the case times out', async () => {
    for (const status of [403, 502, 200]) {
      const error = await caseError(status);
      assert.match(
        error,
        new RegExp(
          `^timed out after 1000 ms while waiting for the body of GET http://127\\.0\\.0\\.1:\\d+/${status}, which answered ${status}$`,
        ),
      );
    }
  });
});
